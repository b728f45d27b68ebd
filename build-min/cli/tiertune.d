build-min/cli/tiertune.o: cli/tiertune.c cli/cli.h cli/../core/error.h \
 cli/../core/sysfs.h cli/../collectors/collector.h \
 cli/../collectors/../core/sysfs.h cli/../collectors/../core/topo.h \
 cli/../collectors/../core/bitmap.h cli/../collectors/../core/sysfs.h \
 cli/../collectors/../core/weights.h cli/../core/apply.h \
 cli/../core/sysfs.h cli/../core/topo.h cli/../core/weights.h \
 cli/../core/wi.h
cli/cli.h:
cli/../core/error.h:
cli/../core/sysfs.h:
cli/../collectors/collector.h:
cli/../collectors/../core/sysfs.h:
cli/../collectors/../core/topo.h:
cli/../collectors/../core/bitmap.h:
cli/../collectors/../core/sysfs.h:
cli/../collectors/../core/weights.h:
cli/../core/apply.h:
cli/../core/sysfs.h:
cli/../core/topo.h:
cli/../core/weights.h:
cli/../core/wi.h:
