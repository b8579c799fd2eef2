#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""upstream-unittest.py FILE: runs the unittest cases of FILE (bubblewrap's
test-seccomp.py and test-sandbox.py, unpacked from the oracle tarballs; nothing of them
is copied here) and
prints one TAP line per case on stdout, so check-upstream can compare bwrap's and
nsrun's results case by case. The cases' own output goes to stderr."""

import importlib.util
import os
import sys
import traceback
import unittest


class TapResult(unittest.TestResult):
    def __init__(self):
        super().__init__()
        self.n = 0
        self.tracebacks = []

    def emit(self, status, test, extra=''):
        self.n += 1
        print(f'{status} {self.n} - {test.id().split(".", 1)[-1]}{extra}', flush=True)

    def addSuccess(self, test):
        super().addSuccess(test)
        self.emit('ok', test)

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self.emit('not ok', test)
        self.tracebacks.append(''.join(traceback.format_exception(*err)))

    def addError(self, test, err):
        super().addError(test, err)
        self.emit('not ok', test)
        self.tracebacks.append(''.join(traceback.format_exception(*err)))

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self.emit('ok', test, f' # SKIP {reason}')


def main():
    spec = importlib.util.spec_from_file_location('upstream_case', sys.argv[1])
    module = importlib.util.module_from_spec(spec)
    # test-sandbox.py's helper finds its own file through the case's module.
    sys.modules[spec.name] = module
    sys.path.insert(0, os.path.dirname(os.path.abspath(sys.argv[1])))
    try:
        spec.loader.exec_module(module)
    except SystemExit:
        # The file skips itself (prints "1..0 # SKIP ...") when it cannot run at all.
        return 0
    suite = unittest.defaultTestLoader.loadTestsFromModule(module)
    result = TapResult()
    suite.run(result)
    print(f'1..{result.n}')
    # Last on stderr, where a reader of the log's tail finds them.
    sys.stderr.write(''.join(result.tracebacks))
    return 0 if result.wasSuccessful() else 1


if __name__ == '__main__':
    sys.exit(main())
