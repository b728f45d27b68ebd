build-min/collectors/c-resctrl.o: collectors/c-resctrl.c \
 collectors/collector.h collectors/../core/sysfs.h \
 collectors/../core/topo.h collectors/../core/bitmap.h \
 collectors/../core/sysfs.h collectors/../core/weights.h \
 collectors/../core/error.h collectors/../core/parse.h
collectors/collector.h:
collectors/../core/sysfs.h:
collectors/../core/topo.h:
collectors/../core/bitmap.h:
collectors/../core/sysfs.h:
collectors/../core/weights.h:
collectors/../core/error.h:
collectors/../core/parse.h:
