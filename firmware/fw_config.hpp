// SPDX-License-Identifier: Apache-2.0
// Compile-time capacities of the node firmware: every buffer is sized here, so the memory of a
// node is fixed at build time (docs/firmware.md, "Memory per node"). Override with -D at build.
#pragma once

#include <cstddef>
#include <cstdint>

namespace wormcast::fw {

#ifndef WORMCAST_FW_MAX_GRID_NODES
#define WORMCAST_FW_MAX_GRID_NODES 1024
#endif
#ifndef WORMCAST_FW_MAX_CHAIN
#define WORMCAST_FW_MAX_CHAIN WORMCAST_FW_MAX_GRID_NODES
#endif
#ifndef WORMCAST_FW_MAX_DATA_WORDS
#define WORMCAST_FW_MAX_DATA_WORDS 256
#endif
#ifndef WORMCAST_FW_MAX_JOBS
#define WORMCAST_FW_MAX_JOBS 4
#endif
#ifndef WORMCAST_FW_MAX_LOCK_QUEUE
#define WORMCAST_FW_MAX_LOCK_QUEUE 256
#endif

// Nodes in one list of the algorithms that list their destinations (the source and its
// destinations, a chain, a carried tree, a path worm's destinations): unicast-based, tree,
// path-based. A list names distinct nodes of one network, so by default it holds as many as the
// largest network the source-side tables take (kMaxGridNodes): on such a network every destination
// count runs. Headers and address fields are generated from the lists as the NI takes them, never
// copied into tables of their own (docs/firmware.md, "Long messages and large broadcasts"). The
// broadcast algorithms (rd, pcp, 3dbs, edn, np-d: a broadcast is a flag) keep no list and run on
// any network the RTL runs.
inline constexpr std::size_t kMaxChain = WORMCAST_FW_MAX_CHAIN;
// Application data words of one multicast (256 words of 8 bytes = 2,048 bytes). The source never
// copies its data (it sends from the application's words) and a destination delivers from the NI's
// receive buffer; only a relay that sends the message on keeps a copy, in its job's relay buffer of
// this many words.
inline constexpr std::size_t kMaxDataWords = WORMCAST_FW_MAX_DATA_WORDS;
// Nodes of the network a tree or XY-path source can plan over (per-node tables at the source).
inline constexpr std::size_t kMaxGridNodes = WORMCAST_FW_MAX_GRID_NODES;
// The longest side of a network the routers run (coordinates of wire::kCoordW = 6 bits): a 3-DBL
// source's column worms name at most this many layer sources.
inline constexpr std::size_t kMaxSide = 64;
// Multicasts a node serves at once (as source or relay). A request or a message to relay that finds
// every job busy waits for one, refused with kNoFreeJob having done nothing (docs/firmware.md,
// "The job limit"): no held copy in the firmware, so no further bound here.
inline constexpr std::size_t kMaxJobs = WORMCAST_FW_MAX_JOBS;
// Replication-lock requests the coordinator queues at once (one per PCP source waiting for the lock).
inline constexpr std::size_t kMaxLockQueue = WORMCAST_FW_MAX_LOCK_QUEUE;
// Nodes of the largest star graph the firmware checks a cycle configuration of (S_6).
inline constexpr std::size_t kMaxStarNodes = 720;
// Local injection/ejection channel pairs (d of the d-port model; 6 = all-port on a 3D mesh).
inline constexpr std::size_t kMaxChannels = 6;

}  // namespace wormcast::fw
