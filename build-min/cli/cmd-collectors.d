build-min/cli/cmd-collectors.o: cli/cmd-collectors.c cli/cli.h \
 cli/../core/error.h cli/../core/sysfs.h cli/../collectors/collector.h \
 cli/../collectors/../core/sysfs.h cli/../collectors/../core/topo.h \
 cli/../collectors/../core/bitmap.h cli/../collectors/../core/sysfs.h \
 cli/../collectors/../core/weights.h cli/../core/topo.h
cli/cli.h:
cli/../core/error.h:
cli/../core/sysfs.h:
cli/../collectors/collector.h:
cli/../collectors/../core/sysfs.h:
cli/../collectors/../core/topo.h:
cli/../collectors/../core/bitmap.h:
cli/../collectors/../core/sysfs.h:
cli/../collectors/../core/weights.h:
cli/../core/topo.h:
