/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* replay.c: placeholder until the replay driver lands. */
int main(void)
{
	return 77;
}
