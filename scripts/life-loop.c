/* The yardstick of scripts/bench-life-cpu.sh: Conway's Life (B3/S23) on a
 * W x H torus, one byte per cell, one thread, the plain loop a C programmer
 * would write first. Reads a plain-text .cells board ('!' lines are
 * comments, 'O' alive, anything else dead, short rows padded dead), runs
 * GENS generations and writes the board the same way, trailing dead cells
 * left off as procgen writes .cells.
 * Usage: life-loop IN.cells OUT.cells W H GENS */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
	if (argc != 6) { fprintf(stderr, "usage: life-loop IN OUT W H GENS\n"); return 2; }
	int w = atoi(argv[3]), h = atoi(argv[4]), gens = atoi(argv[5]);
	unsigned char *cur = calloc((size_t)w * h, 1), *nxt = calloc((size_t)w * h, 1);
	char *line = malloc((size_t)w + 3);
	FILE *in = fopen(argv[1], "r");
	if (!cur || !nxt || !line || !in) { perror(argv[1]); return 1; }
	for (int y = 0; y < h && fgets(line, w + 3, in);) {
		if (line[0] == '!') continue;
		for (int x = 0; x < w && line[x] && line[x] != '\n'; x++) cur[(size_t)y * w + x] = line[x] == 'O';
		y++;
	}
	fclose(in);
	for (int g = 0; g < gens; g++) {
		for (int y = 0; y < h; y++) {
			const unsigned char *up = cur + (size_t)((y + h - 1) % h) * w, *mid = cur + (size_t)y * w,
			                    *dn = cur + (size_t)((y + 1) % h) * w;
			for (int x = 0; x < w; x++) {
				int l = x ? x - 1 : w - 1, r = x + 1 < w ? x + 1 : 0;
				int n = up[l] + up[x] + up[r] + mid[l] + mid[r] + dn[l] + dn[x] + dn[r];
				nxt[(size_t)y * w + x] = n == 3 || (n == 2 && mid[x]);
			}
		}
		unsigned char *t = cur; cur = nxt; nxt = t;
	}
	FILE *out = fopen(argv[2], "w");
	if (!out) { perror(argv[2]); return 1; }
	fputs("!Name: life-loop\n", out);
	for (int y = 0; y < h; y++) {
		int end = w;
		while (end > 0 && !cur[(size_t)y * w + end - 1]) end--;
		for (int x = 0; x < end; x++) line[x] = cur[(size_t)y * w + x] ? 'O' : '.';
		line[end] = '\n';
		fwrite(line, 1, (size_t)end + 1, out);
	}
	return fclose(out) != 0;
}
