build-min/cli/recos.o: cli/recos.c cli/recos.h cli/../core/recommend.h \
 cli/../core/topo.h cli/../core/bitmap.h cli/../core/sysfs.h \
 cli/../core/weights.h cli/../db/db.h cli/../db/../core/topo.h \
 cli/../db/../core/weights.h cli/../core/error.h cli/../core/parse.h
cli/recos.h:
cli/../core/recommend.h:
cli/../core/topo.h:
cli/../core/bitmap.h:
cli/../core/sysfs.h:
cli/../core/weights.h:
cli/../db/db.h:
cli/../db/../core/topo.h:
cli/../db/../core/weights.h:
cli/../core/error.h:
cli/../core/parse.h:
