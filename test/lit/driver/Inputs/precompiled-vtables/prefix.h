#include <holder.h>
