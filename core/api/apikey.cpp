#include "core/api/apikey.h"
