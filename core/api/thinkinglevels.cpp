#include "core/api/thinkinglevels.h"
