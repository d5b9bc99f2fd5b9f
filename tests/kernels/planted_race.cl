/* A planted data race, for the race check's own test (tests/race_check.sh): every work-item adds
 * into the same element without atomics, across work-groups. Oclgrind's --data-races must report
 * it; if it does not, the check that the solver's kernels are race-free proves nothing. */
__kernel void planted_race(__global uint *counter) { counter[0] += get_global_id(0); }
