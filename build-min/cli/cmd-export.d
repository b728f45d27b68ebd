build-min/cli/cmd-export.o: cli/cmd-export.c cli/cli.h \
 cli/../core/error.h cli/../core/sysfs.h cli/../core/apply.h \
 cli/../core/sysfs.h cli/../core/topo.h cli/../core/bitmap.h \
 cli/../core/weights.h cli/../core/wi.h cli/../core/wi.h cli/../db/db.h \
 cli/../db/../core/topo.h cli/../db/../core/weights.h cli/recos.h \
 cli/../core/recommend.h
cli/cli.h:
cli/../core/error.h:
cli/../core/sysfs.h:
cli/../core/apply.h:
cli/../core/sysfs.h:
cli/../core/topo.h:
cli/../core/bitmap.h:
cli/../core/weights.h:
cli/../core/wi.h:
cli/../core/wi.h:
cli/../db/db.h:
cli/../db/../core/topo.h:
cli/../db/../core/weights.h:
cli/recos.h:
cli/../core/recommend.h:
