#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# bench/fallback.sh: what --fallback costs at start-up, interleaved round by round
# (bench/pair.c) so that machine drift lands on every case alike; each table's "plain"
# is the same sandbox without --fallback, started the same way:
#   ok       the host refuses nothing: the declaration alone (the second release);
#   proc     a masked /proc (a file of it overmounted, as container runtimes do), as
#            uid 65534: the fresh procfs is refused and the host's bound instead, in
#            the same attempt; plain is --ro-bind /proc /proc in its place;
#   userns   user.max_user_namespaces=0 in an outer user namespace: the first attempt is
#            refused at clone and the command runs Landlock-only; plain is
#            --landlock-only with the same rules.
# The environments are made by `unshare ... sh -c`, in every case alike, so that their
# cost cancels out of the differences.
# Usage: bench/fallback.sh [NSRUN] (default ./nsrun); RUNS=N (default 200). Needs root,
# cc and python3. Not a test. Benchmark a build without sanitizers.
set -eu

# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
bench_init fallback 200 "${1:-}"
mkdir "$OUT/rw"
chmod 0777 "$OUT/rw"

# bench/run.sh's APP without its /proc; each case adds its own.
APP="--ro-bind /usr /usr --symlink usr/bin /bin --symlink usr/lib /lib --symlink usr/lib64 /lib64"
APP="$APP --dev /dev --bind $OUT/rw $OUT/rw --unshare-all --die-with-parent --landlock-rw $OUT/rw"
LL="--landlock-only --landlock-rw $OUT/rw --die-with-parent"

# pair splits on spaces: each environment is a script taking nsrun's arguments.
cat >"$OUT/masked" <<EOF
#!/bin/sh
exec unshare -m --propagation private sh -c 'mount --bind /dev/null /proc/version && exec setpriv --reuid=65534 --regid=65534 --clear-groups "\$@"' sh "\$@"
EOF
cat >"$OUT/nouserns" <<EOF
#!/bin/sh
exec unshare -U -r sh -c 'echo 0 >/proc/sys/user/max_user_namespaces && exec "\$@"' sh "\$@"
EOF
chmod 0755 "$OUT/masked" "$OUT/nouserns"

echo "load: $(cut -d' ' -f1-3 /proc/loadavg); $RUNS rounds"
bench_table ok plain "$NS $APP --proc /proc /bin/true" \
	declared "$NS $APP --proc /proc --fallback net,proc,namespaces /bin/true"
bench_table proc plain "$OUT/masked $NS $APP --ro-bind /proc /proc /bin/true" \
	fallback "$OUT/masked $NS $APP --proc /proc --fallback proc /bin/true"
bench_table userns plain "$OUT/nouserns $NS $LL /bin/true" \
	fallback "$OUT/nouserns $NS $APP --unshare-user --proc /proc --fallback namespaces /bin/true"
echo "(+wall: median of the per-round differences to plain; +cpu: difference of the medians)"
