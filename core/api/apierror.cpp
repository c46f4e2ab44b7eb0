#include "core/api/apierror.h"
