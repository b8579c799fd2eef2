# SPDX-License-Identifier: LGPL-2.1-or-later
# NSRUN_ADD_CFLAG(VAR, FLAG): append FLAG to VAR when the compiler accepts it.
# -Werror is used for the probe so that "unknown warning option" notes count as failure.
AC_DEFUN([NSRUN_ADD_CFLAG], [
  AS_VAR_PUSHDEF([nsrun_cv], [nsrun_cv_cflag_$2])
  AC_CACHE_CHECK([whether $CC accepts $2], [nsrun_cv], [
    nsrun_save_CFLAGS="$CFLAGS"
    CFLAGS="$CFLAGS -Werror $2"
    AC_LINK_IFELSE([AC_LANG_PROGRAM([], [])],
      [AS_VAR_SET([nsrun_cv], [yes])], [AS_VAR_SET([nsrun_cv], [no])])
    CFLAGS="$nsrun_save_CFLAGS"])
  AS_VAR_IF([nsrun_cv], [yes], [$1="$$1 $2"])
  AS_VAR_POPDEF([nsrun_cv])
])
