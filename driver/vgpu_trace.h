/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vgpu_trace.h - tracepoints of the trace system "vgpu" (F64).
 *
 * Every event carries the device index, kernel id, block, warp, SM,
 * priority and the virtual cycle; fields that do not apply are 4294967295.
 * They are fired from the core's event sink (vgpu_obs.c) and, for hang,
 * where the hang timeout cancels a kernel (vgpu_sched.c).  No pointers are
 * logged.  Documentation/debugfs.rst lists what each event means.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM vgpu

#if !defined(VGPU_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define VGPU_TRACE_H

#include <linux/tracepoint.h>

DECLARE_EVENT_CLASS(vgpu_event_class,
		    TP_PROTO(u32 dev, u32 kernel, u32 block, u32 warp, u32 sm,
			     u32 prio, u64 cycle),
		    TP_ARGS(dev, kernel, block, warp, sm, prio, cycle),
		    TP_STRUCT__entry(__field(u64, cycle)
				     __field(u32, dev)
				     __field(u32, kernel)
				     __field(u32, block)
				     __field(u32, warp)
				     __field(u32, sm)
				     __field(u32, prio)),
		    TP_fast_assign(__entry->cycle = cycle;
				   __entry->dev = dev;
				   __entry->kernel = kernel;
				   __entry->block = block;
				   __entry->warp = warp;
				   __entry->sm = sm;
				   __entry->prio = prio;),
		    TP_printk("dev=%u kernel=%u block=%u warp=%u sm=%u prio=%u cycle=%llu",
			      __entry->dev, __entry->kernel, __entry->block,
			      __entry->warp, __entry->sm, __entry->prio,
			      __entry->cycle)
);

#define VGPU_TRACE_EVENT(name)						\
	DEFINE_EVENT(vgpu_event_class, name,				\
		TP_PROTO(u32 dev, u32 kernel, u32 block, u32 warp, u32 sm, \
			 u32 prio, u64 cycle),				\
		TP_ARGS(dev, kernel, block, warp, sm, prio, cycle))

VGPU_TRACE_EVENT(vgpu_kernel_submit);
VGPU_TRACE_EVENT(vgpu_block_dispatch);
VGPU_TRACE_EVENT(vgpu_warp_start);
VGPU_TRACE_EVENT(vgpu_preempt);
VGPU_TRACE_EVENT(vgpu_block_complete);
VGPU_TRACE_EVENT(vgpu_kernel_complete);
VGPU_TRACE_EVENT(vgpu_mutex_arbitrate);
VGPU_TRACE_EVENT(vgpu_hang);
VGPU_TRACE_EVENT(vgpu_kernel_launch);
VGPU_TRACE_EVENT(vgpu_kernel_fail);

/* F17: SM @sm takes @kernel's state (it had @from's) for block @block. */
TRACE_EVENT(vgpu_state_sync,
	    TP_PROTO(u32 dev, u32 sm, u32 kernel, u32 block, u32 from,
		     u64 cycle, u64 ready),
	    TP_ARGS(dev, sm, kernel, block, from, cycle, ready),
	    TP_STRUCT__entry(__field(u64, cycle)
			     __field(u64, ready)
			     __field(u32, dev)
			     __field(u32, sm)
			     __field(u32, kernel)
			     __field(u32, block)
			     __field(u32, from)),
	    TP_fast_assign(__entry->cycle = cycle;
			   __entry->ready = ready;
			   __entry->dev = dev;
			   __entry->sm = sm;
			   __entry->kernel = kernel;
			   __entry->block = block;
			   __entry->from = from;),
	    TP_printk("dev=%u sm=%u kernel=%u block=%u from=%u cycle=%llu ready=%llu",
		      __entry->dev, __entry->sm, __entry->kernel,
		      __entry->block, __entry->from, __entry->cycle,
		      __entry->ready)
);

/*
 * F14: @items work items of queue kernel @kernel arrived (@arg = 1: the
 * push closed the queue), or block @block formed with @items (@arg: why,
 * 0 full, 1 timeout, 2 close).
 */
DECLARE_EVENT_CLASS(vgpu_queue_class,
		    TP_PROTO(u32 dev, u32 kernel, u32 block, u32 items, u32 arg,
			     u64 cycle),
		    TP_ARGS(dev, kernel, block, items, arg, cycle),
		    TP_STRUCT__entry(__field(u64, cycle)
				     __field(u32, dev)
				     __field(u32, kernel)
				     __field(u32, block)
				     __field(u32, items)
				     __field(u32, arg)),
		    TP_fast_assign(__entry->cycle = cycle;
				   __entry->dev = dev;
				   __entry->kernel = kernel;
				   __entry->block = block;
				   __entry->items = items;
				   __entry->arg = arg;),
		    TP_printk("dev=%u kernel=%u block=%u items=%u arg=%u cycle=%llu",
			      __entry->dev, __entry->kernel, __entry->block,
			      __entry->items, __entry->arg, __entry->cycle)
);

DEFINE_EVENT(vgpu_queue_class, vgpu_queue_push,
	     TP_PROTO(u32 dev, u32 kernel, u32 block, u32 items, u32 arg,
		      u64 cycle),
	     TP_ARGS(dev, kernel, block, items, arg, cycle));
DEFINE_EVENT(vgpu_queue_class, vgpu_queue_block,
	     TP_PROTO(u32 dev, u32 kernel, u32 block, u32 items, u32 arg,
		      u64 cycle),
	     TP_ARGS(dev, kernel, block, items, arg, cycle));

/*
 * F17, seed 002 step 434: SM @sm is assigned @kernel (it had @from) by
 * block @block at @cycle; the assignment ends, the state goes out, at
 * @until (only with an assign_latency).
 */
TRACE_EVENT(vgpu_sm_assign,
	    TP_PROTO(u32 dev, u32 sm, u32 kernel, u32 block, u32 from,
		     u64 cycle, u64 until),
	    TP_ARGS(dev, sm, kernel, block, from, cycle, until),
	    TP_STRUCT__entry(__field(u64, cycle)
			     __field(u64, until)
			     __field(u32, dev)
			     __field(u32, sm)
			     __field(u32, kernel)
			     __field(u32, block)
			     __field(u32, from)),
	    TP_fast_assign(__entry->cycle = cycle;
			   __entry->until = until;
			   __entry->dev = dev;
			   __entry->sm = sm;
			   __entry->kernel = kernel;
			   __entry->block = block;
			   __entry->from = from;),
	    TP_printk("dev=%u sm=%u kernel=%u block=%u from=%u cycle=%llu until=%llu",
		      __entry->dev, __entry->sm, __entry->kernel,
		      __entry->block, __entry->from, __entry->cycle,
		      __entry->until)
);

/*
 * F13, seed 002 step 408: the SMs acknowledged the deallocation request of
 * task slot @slot (made at @requested, when it held @kernel): the slot is
 * free at @cycle (only with a dealloc_latency).
 */
TRACE_EVENT(vgpu_task_dealloc,
	    TP_PROTO(u32 dev, u32 kernel, u32 slot, u64 requested, u64 cycle),
	    TP_ARGS(dev, kernel, slot, requested, cycle),
	    TP_STRUCT__entry(__field(u64, cycle)
			     __field(u64, requested)
			     __field(u32, dev)
			     __field(u32, kernel)
			     __field(u32, slot)),
	    TP_fast_assign(__entry->cycle = cycle;
			   __entry->requested = requested;
			   __entry->dev = dev;
			   __entry->kernel = kernel;
			   __entry->slot = slot;),
	    TP_printk("dev=%u kernel=%u slot=%u requested=%llu cycle=%llu",
		      __entry->dev, __entry->kernel, __entry->slot,
		      __entry->requested, __entry->cycle)
);

#endif /* VGPU_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE vgpu_trace
#include <trace/define_trace.h>
