/* Replays saved inputs through the fuzz target without libFuzzer.
 *
 * Usage: fuzz-replay FILE...  Each file (or every regular file of a directory) is
 * read whole and passed to LLVMFuzzerTestOneInput(), which aborts on a violated
 * property; the sanitizers of an ASan/UBSan build catch memory errors.  Used by the
 * meson test suite on tests/fuzz/crashes (inputs that once failed) and the corpus.
 * Complexity: linear in the total size of the inputs. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return 1;
	}
	size_t cap = 1 << 16, len = 0;
	uint8_t *buf = malloc(cap);
	size_t got;
	while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
		len += got;
		if (len == cap) {
			cap *= 2;
			uint8_t *grown = realloc(buf, cap);
			if (!grown)
				free(buf);
			buf = grown;
		}
	}
	fclose(f);
	if (!buf) {
		fprintf(stderr, "%s: out of memory\n", path);
		return 1;
	}
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	return 0;
}

static int replay_path(const char *path, unsigned *count)
{
	struct stat st;
	if (stat(path, &st) != 0) {
		perror(path);
		return 1;
	}
	if (!S_ISDIR(st.st_mode)) {
		++*count;
		return replay_file(path);
	}
	struct dirent **names;
	int n = scandir(path, &names, NULL, alphasort);
	if (n < 0) {
		perror(path);
		return 1;
	}
	int status = 0;
	for (int i = 0; i < n; ++i) {
		if (names[i]->d_name[0] != '.') {
			size_t len = strlen(path) + strlen(names[i]->d_name) + 2;
			char *child = malloc(len);
			if (!child)
				return 1;
			snprintf(child, len, "%s/%s", path, names[i]->d_name);
			struct stat cst;
			if (stat(child, &cst) == 0 && S_ISREG(cst.st_mode)) {
				++*count;
				status |= replay_file(child);
			}
			free(child);
		}
		free(names[i]);
	}
	free(names);
	return status;
}

int main(int argc, char **argv)
{
	unsigned count = 0;
	int status = 0;
	for (int i = 1; i < argc; ++i)
		status |= replay_path(argv[i], &count);
	printf("fuzz-replay: %u inputs replayed\n", count);
	return status;
}
