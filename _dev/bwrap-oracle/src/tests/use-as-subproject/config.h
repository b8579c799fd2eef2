#error Should not use superproject config.h to compile bubblewrap
