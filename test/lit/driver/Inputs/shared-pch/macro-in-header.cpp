// One step removed: the macro is defined in the project's own header,
// before LibTorch's. Shares.
#include "own/settings.h"
int macroInHeader() { return api::answer() + OWN_SETTING; }
