/* rusage_exec OUT CMD ARGS...: runs CMD and writes "user_s system_s maxrss_kib status" of it
 * to OUT.  bench/run measures through this small process because a child forked from Python
 * inherits the Python process's peak RSS as its own (Linux keeps the highest RSS of the
 * address space a process had before exec), which put a floor of ~20 MiB under every
 * measured compile.  The status is the child's exit code, or 128 + the signal. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: rusage_exec OUT CMD [ARGS...]\n");
		return 2;
	}
	pid_t pid = fork();
	if (pid < 0)
		return 2;
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		perror(argv[2]);
		_exit(127);
	}
	int status;
	struct rusage ru;
	if (wait4(pid, &status, 0, &ru) < 0)
		return 2;
	int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	FILE *f = fopen(argv[1], "w");
	if (!f)
		return 2;
	fprintf(f, "%ld.%06ld %ld.%06ld %ld %d\n", (long)ru.ru_utime.tv_sec,
	        (long)ru.ru_utime.tv_usec, (long)ru.ru_stime.tv_sec, (long)ru.ru_stime.tv_usec,
	        ru.ru_maxrss, code);
	fclose(f);
	return code;
}
