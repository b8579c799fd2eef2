/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* placeholder: skipped until the module tests land */
int main(void)
{
	return 77;
}
