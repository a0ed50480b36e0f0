// SPDX-License-Identifier: GPL-2.0
/*
 * static.c - linked into the statically linked programs of the VM guest
 * only (vgpuctl, vgpu-sim and the netlink test under build/vm-bin/).
 *
 * The guest has no C library, no NSS modules and no dynamic loader.
 * Static glibc can only do name-service lookups and dlopen() by loading
 * shared objects at run time, so in the guest they fail anyway, and the
 * linker warns about every program that merely references them.  The
 * references come from code these programs never reach there: libnl's
 * address and protocol name helpers (getaddrinfo(), getprotobyname(),
 * getprotobynumber()) and SQLite's loadable extensions (dlopen());
 * vgpu-sim's policy objects (dlopen()) need a dynamically linked vgpu-sim.
 *
 * The static links wrap these functions (ld --wrap=NAME, STATIC_LDFLAGS
 * in userspace/userspace.mk): every reference goes to __wrap_NAME below,
 * which fails the way glibc's would in the guest, so no reference to the
 * warned-about symbols is left.  (Defining the functions themselves would
 * not do: static glibc links its own dlopen() in for internal use.)
 */
#include <netdb.h>
#include <stddef.h>

/* Nothing calls these by these names: the linker redirects to them. */
int __wrap_getaddrinfo(const char *node, const char *service,
		       const struct addrinfo *hints, struct addrinfo **res);
struct protoent *__wrap_getprotobyname(const char *name);
struct protoent *__wrap_getprotobynumber(int proto);
void *__wrap_dlopen(const char *file, int mode);
char *__wrap_dlerror(void);
void *__wrap_dlsym(void *handle, const char *name);
int __wrap_dlclose(void *handle);

static const char vgpu_static_dl_msg[] =
	"dynamic loading is not available in a statically linked program";

int __wrap_getaddrinfo(const char *node, const char *service,
		       const struct addrinfo *hints, struct addrinfo **res)
{
	*res = NULL;
	return EAI_FAIL;
}

struct protoent *__wrap_getprotobyname(const char *name)
{
	return NULL;
}

struct protoent *__wrap_getprotobynumber(int proto)
{
	return NULL;
}

void *__wrap_dlopen(const char *file, int mode)
{
	return NULL;
}

char *__wrap_dlerror(void)
{
	return (char *)vgpu_static_dl_msg;
}

void *__wrap_dlsym(void *handle, const char *name)
{
	return NULL;
}

int __wrap_dlclose(void *handle)
{
	return -1;
}
