#include "core/api/clientconfig.h"
