build-clang/cli/tiertune.o: cli/tiertune.c cli/cli.h cli/../core/error.h \
  cli/../core/sysfs.h

cli/cli.h:

cli/../core/error.h:

cli/../core/sysfs.h:
