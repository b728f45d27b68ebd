build-min/cli/cli.o: cli/cli.c cli/cli.h cli/../core/error.h \
 cli/../core/sysfs.h cli/../core/parse.h cli/../core/topo.h \
 cli/../core/bitmap.h cli/../core/sysfs.h cli/../core/wi.h \
 cli/../core/topo.h cli/../core/weights.h cli/../db/db.h \
 cli/../db/../core/topo.h cli/../db/../core/weights.h
cli/cli.h:
cli/../core/error.h:
cli/../core/sysfs.h:
cli/../core/parse.h:
cli/../core/topo.h:
cli/../core/bitmap.h:
cli/../core/sysfs.h:
cli/../core/wi.h:
cli/../core/topo.h:
cli/../core/weights.h:
cli/../db/db.h:
cli/../db/../core/topo.h:
cli/../db/../core/weights.h:
