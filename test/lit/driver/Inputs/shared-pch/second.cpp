/* A block comment. */
#include <api.h> // a trailing comment
int second() { return api::answer() + 1; }
