#ifndef SLIPWAY_CLIBGIT2_SHIM_H
#define SLIPWAY_CLIBGIT2_SHIM_H
#include <git2.h>
#endif
