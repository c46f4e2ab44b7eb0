#include "core/api/turnrequest.h"
