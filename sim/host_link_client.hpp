// SPDX-License-Identifier: Apache-2.0
// The host's end of the board's host link (docs/host-link.md): encodes the commands,
// decodes the responses, and reassembles each node's logged flits into deliveries. The bytes travel
// over a ByteLink: the UART pin model of a simulated board (fpga-sim) or a serial port (fpga).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <vector>

namespace wormcast::sim {

// A byte channel to the board. read_byte returns nullopt when no byte came within the link's
// patience (a simulated board: a number of cycles; a serial port: a time).
class ByteLink {
 public:
  virtual ~ByteLink() = default;
  virtual void write(const std::vector<std::uint8_t>& bytes) = 0;
  virtual std::optional<std::uint8_t> read_byte() = 0;
};

// The link answered what the protocol does not allow, or did not answer.
class HostLinkError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The status block.
struct LinkStatus {
  std::uint32_t cycle = 0;   // the board cycle the status command arrived in
  std::uint16_t late = 0;    // late starts
  std::uint16_t stalls = 0;  // cycles a delivery log held its receive port
  std::uint8_t link_errors = 0;
  unsigned word_bytes = 0, max_words = 0, log_depth = 0;
  struct Node {
    std::uint8_t errors = 0, free = 0, queued = 0, logged = 0;
  };
  std::vector<Node> nodes;
};

// Inject answer codes.
enum class InjectCode : std::uint8_t { kAccepted = 0, kBadNode = 1, kBadLength = 2, kNoRoom = 3 };

struct InjectAnswer {
  InjectCode code = InjectCode::kAccepted;
  unsigned free = 0;  // the node's free queue entries when the answer was sent
};

// One logged flit.
struct FlitRecord {
  unsigned stream = 0;
  bool head = false, addr = false, last = false;
  std::uint64_t word = 0;
  std::uint32_t cycle = 0;
};

// A message one node received: its flits' words, head first, and the board cycle of its last flit.
struct LinkDelivery {
  unsigned node = 0, stream = 0;
  std::vector<std::uint64_t> words;
  std::uint32_t cycle = 0;
};

class HostLinkClient {
 public:
  // Reads the status once to learn the word size and the node count.
  explicit HostLinkClient(ByteLink& link);

  LinkStatus status();
  InjectAnswer inject(unsigned node, std::uint32_t start_cycle, const std::vector<std::uint64_t>& words);
  std::vector<FlitRecord> read(unsigned node, unsigned max = 255);
  // Reads every flit node `node` has logged (several reads if need be) and returns the messages
  // they complete, in the order their last flits arrived; a message's earlier flits wait for later
  // calls. Throws HostLinkError on a flit out of place in its stream.
  std::vector<LinkDelivery> collect(unsigned node);

  unsigned nodes() const { return nodes_; }
  unsigned word_bytes() const { return word_bytes_; }
  unsigned max_words() const { return max_words_; }

 private:
  std::uint8_t next();
  std::uint64_t next_le(unsigned bytes);
  void expect(std::uint8_t want, const char* what);

  ByteLink& link_;
  unsigned nodes_ = 0, word_bytes_ = 0, max_words_ = 0;
  std::map<std::pair<unsigned, unsigned>, LinkDelivery> partial_;  // (node, stream)
};

}  // namespace wormcast::sim
