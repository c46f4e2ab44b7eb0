#include "core/api/interactionsclient.h"
