/* The IR pass tests' failure count and CHECK(cond, printf-style message): a failed check
 * prints FAIL with its file and line and counts; main returns nonzero when any failed. */
#ifndef IR_CHECK_H
#define IR_CHECK_H

#include <stdio.h>

static unsigned failures;

#define CHECK(cond, ...)                                                                           \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                       \
			fprintf(stderr, __VA_ARGS__);                                              \
			fprintf(stderr, "\n");                                                     \
			failures++;                                                                \
		}                                                                                  \
	} while (0)

#endif
