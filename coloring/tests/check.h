/* Independent checks of a colouring: what every test asserts about drape_color_constraints output,
 * computed here from the input alone, with none of the library's code. */
#ifndef DRAPE_COLORING_TEST_CHECK_H
#define DRAPE_COLORING_TEST_CHECK_H

#include "drape_coloring.h"

/* The most constraints on one movable particle (a particle listed twice in a constraint counts
 * once). */
uint32_t reference_lower_bound(const drape_color_input *in);

/* The most other constraints one constraint conflicts with (shares a movable particle with). Any
 * first-fit colouring uses at most this + 1 colours. */
uint32_t reference_max_conflicts(const drape_color_input *in);

/* First-fit in natural order, by brute force over each constraint's neighbours; colors[count]. */
void reference_first_fit(const drape_color_input *in, uint32_t *colors);

/* Asserts (ENSURE) everything a colouring must satisfy: `order` is a permutation of the
 * constraints, the offsets are non-decreasing from 0 to count with no empty colour, no colour holds
 * two constraints sharing a movable particle, the statistics match the ranges, the lower bound is
 * right, and lower bound <= colours <= max conflicts + 1. Writes the colour of every constraint to
 * colors (count entries) when it is not NULL. */
void check_coloring(const drape_color_input *in, const drape_coloring *out, uint32_t *colors);

/* Largest colour size / smallest colour size. */
double size_ratio(const drape_coloring *out);

/* Colours `in`, asserts DRAPE_OK and check_coloring, and returns the colouring. */
drape_coloring color_checked(const drape_color_input *in);

/* Colours `in` in every order, with and without balancing, checks each colouring, and asserts that
 * balancing kept the colour count and did not raise the largest/smallest ratio. Returns the colour
 * count of the natural order. */
uint32_t check_all_orders(drape_color_input in);

#endif
