// A header for layouttest's own test.
#pragma once
#include <stdint.h>
#define SAMPLE_COUNT 7
struct SampleItem {
	float pos_x;
	int32_t n;
	double weight;
};
