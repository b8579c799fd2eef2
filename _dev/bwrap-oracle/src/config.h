#define PACKAGE_STRING "bubblewrap 0.11.1"
#define _GNU_SOURCE 1
