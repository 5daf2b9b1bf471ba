// Two targets' headers, through two -I folders of this target's own.
#include "encoder.h"
#include "decoder.h"
int main() { return encode(Decoder().run()); }
