#include <holder.h>

int main() { return holderInHeader(); }
