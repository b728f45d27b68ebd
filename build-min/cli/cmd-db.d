build-min/cli/cmd-db.o: cli/cmd-db.c cli/cli.h cli/../core/error.h \
 cli/../core/sysfs.h cli/../db/db.h cli/../db/../core/topo.h \
 cli/../db/../core/bitmap.h cli/../db/../core/sysfs.h \
 cli/../db/../core/weights.h
cli/cli.h:
cli/../core/error.h:
cli/../core/sysfs.h:
cli/../db/db.h:
cli/../db/../core/topo.h:
cli/../db/../core/bitmap.h:
cli/../db/../core/sysfs.h:
cli/../db/../core/weights.h:
