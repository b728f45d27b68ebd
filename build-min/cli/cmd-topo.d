build-min/cli/cmd-topo.o: cli/cmd-topo.c cli/cli.h cli/../core/error.h \
 cli/../core/sysfs.h cli/../core/topo.h cli/../core/bitmap.h \
 cli/../core/sysfs.h cli/../core/wi.h cli/../core/topo.h \
 cli/../core/weights.h
cli/cli.h:
cli/../core/error.h:
cli/../core/sysfs.h:
cli/../core/topo.h:
cli/../core/bitmap.h:
cli/../core/sysfs.h:
cli/../core/wi.h:
cli/../core/topo.h:
cli/../core/weights.h:
