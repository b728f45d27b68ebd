build-min/cli/cmd-simulate.o: cli/cmd-simulate.c cli/cli.h \
 cli/../core/error.h cli/../core/sysfs.h cli/../core/interleave.h \
 cli/../core/bitmap.h cli/../core/topo.h cli/../core/sysfs.h \
 cli/../core/weights.h cli/../core/parse.h cli/../core/topo.h \
 cli/../core/wi.h
cli/cli.h:
cli/../core/error.h:
cli/../core/sysfs.h:
cli/../core/interleave.h:
cli/../core/bitmap.h:
cli/../core/topo.h:
cli/../core/sysfs.h:
cli/../core/weights.h:
cli/../core/parse.h:
cli/../core/topo.h:
cli/../core/wi.h:
