#include "core/api/imageinput.h"
