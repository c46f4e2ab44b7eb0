#include "core/api/cancellation.h"
