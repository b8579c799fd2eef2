/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * mountinfo.h: read-only queries of /proc/self/mountinfo: a small line parser
 * with no dependencies, and subtree lookups through libmount (the only libmount
 * user). Paths are as the calling process sees them (relative to its root),
 * which is what mountinfo's mount-point field holds.
 */
#pragma once

#include <stdbool.h>

/* One line of a mountinfo file (proc(5)), split in place: the strings point into it. */
struct mountinfo_entry {
	unsigned long long id, parent_id;
	unsigned major, minor; /* of the filesystem (st_dev of its files on most) */
	char *root;	       /* the mount's root inside its filesystem, unescaped */
	char *mountpoint;      /* unescaped */
	char *mount_opts;      /* per-mount options: "rw,nosuid,..." */
	char *fstype;
	char *source;	  /* unescaped */
	char *super_opts; /* per-superblock options; values keep their \ooo escapes */
};

/* Splits one line (a trailing newline is ignored) into *ret. Pure: no I/O.
 * Returns 0 or -EINVAL for a malformed line. */
int mountinfo_parse_line(char *line, struct mountinfo_entry *ret);

/* Decodes mountinfo's octal escapes (\040 for ' ', \134 for '\\' ...) in place. */
void mountinfo_unescape(char *s);

/* Whether the comma-separated option list opts holds name exactly ("ro" in "ro,nosuid"). */
bool mountinfo_has_opt(const char *opts, const char *name);

/* The layer directories an overlayfs mountinfo entry names in its super options (still
 * with mountinfo's \ooo escapes): lowers get lowerdir (split on ':'), lowerdir+ and
 * datadir+; uppers get upperdir and workdir. overlayfs's own '\' escapes are removed
 * where it takes them (lowerdir, upperdir, workdir). Appends to *lowers and *uppers. */
void mountinfo_overlay_layers(const char *super_opts, char ***lowers, char ***uppers);

/* Mount points at or below MOUNTPOINT in the tree of the topmost mount there (the path
 * itself first, then in mountinfo order, which lists parents before children); mounts
 * that one covers, or that another covers inside its tree (stacked at one path), are
 * left out. Returns 0 with a NULL-terminated vector in *ret
 * (free with strv_free) or -errno; -ELIBACC when libmount cannot be loaded. */
int mountinfo_list_subtree(const char *mountpoint, char ***ret);
/* The same, with each mount's per-mount options ("rw,nosuid,relatime") in *opts, index by
 * index: bwrap 0.12+ keeps a submount's flags from these, not from statfs(2), which a
 * dead network or FUSE mount answers with EIO. */
int mountinfo_list_subtree_opts(const char *mountpoint, char ***ret, char ***opts);
/* The same for the mount on a file (which has no submounts), without reading the table:
 * one entry, its flags from statvfs(3) ("ro" also for a read-only superblock, which a
 * remount may add). -errno when statvfs fails (EIO on a dead mount): then ask the table. */
int mountinfo_list_file(const char *path, char ***ret, char ***opts);

/* Loads libmount now. Callers on the legacy path do this before pivoting away from the
 * host's library directories. Returns 0 or -ELIBACC. */
int mountinfo_preload(void);

/* Calls FN on every mount of type FSTYPE (NULL: of any type) in the mountinfo file open
 * on FD, in its order; stops at the first that returns true, and returns whether one did
 * (false too when FD cannot be read). */
bool mountinfo_any(int fd, const char *fstype, bool (*fn)(const struct mountinfo_entry *, void *),
		   void *data);

/* Whether the working directory lies on the mount a lookup of PATH would end on (no
 * mount was put over PATH since the process entered it), when it cannot be looked up. */
bool mountinfo_cwd_is(const char *path);
