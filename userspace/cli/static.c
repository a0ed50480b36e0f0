// SPDX-License-Identifier: GPL-2.0
/*
 * static.c - linked into the statically linked programs of the VM guest
 * only (vgpuctl, vgpu-sim and the netlink test under build/vm-bin/).
 *
 * The guest has no C library, no NSS modules and no dynamic loader.
 * Static glibc can only do name-service lookups and dlopen() by loading
 * shared objects at run time, so in the guest they fail anyway, and the
 * linker warns about every program that merely references them.  The
 * references come from code these programs never reach: libnl's address
 * and protocol name helpers (getaddrinfo(), getprotobyname(),
 * getprotobynumber()) and SQLite's loadable extensions (dlopen());
 * vgpu-sim's policy objects (dlopen()) need a dynamically linked vgpu-sim.
 * These definitions take the place of glibc's and fail the way glibc's
 * would in the guest.
 */
#include <dlfcn.h>
#include <errno.h>
#include <netdb.h>
#include <stddef.h>

static const char vgpu_static_dl_msg[] =
	"dynamic loading is not available in a statically linked program";

int getaddrinfo(const char *node, const char *service,
		const struct addrinfo *hints, struct addrinfo **res)
{
	*res = NULL;
	return EAI_FAIL;
}

void freeaddrinfo(struct addrinfo *res)
{
}

const char *gai_strerror(int err)
{
	return "name resolution is not available in a statically linked program";
}

struct protoent *getprotobyname(const char *name)
{
	return NULL;
}

struct protoent *getprotobynumber(int proto)
{
	return NULL;
}

void *dlopen(const char *file, int mode)
{
	return NULL;
}

char *dlerror(void)
{
	return (char *)vgpu_static_dl_msg;
}

void *dlsym(void *handle, const char *name)
{
	return NULL;
}

int dlclose(void *handle)
{
	return -1;
}
