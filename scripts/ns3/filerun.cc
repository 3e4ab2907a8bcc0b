// filerun.cc: replays an HPCC-branch topology.txt and flow.txt in ns-3.37
// under DCTCP and writes each flow's completion in that branch's fct.txt
// layout, so that one analysis reads the results of both tools. Built and
// run by scripts/ns3/h2h.sh (g++ against the installed ns-3.37).
//
// Input formats (alibaba-edu/High-Precision-Congestion-Control,
// simulation/scratch/third.cc at 9f4be2a9; see hpcc-sample/SOURCES.md):
//   topology.txt  "nodes switches links", the switch ids, then per link
//                 "src dst rate delay error_rate" (lines 697-758)
//   flow.txt      a count, then per flow "src dst pg dport size start_s"
//                 in ascending start time; only count lines are read
//                 (lines 129-134)
// Output (--fct FILE), one line per completed flow, as qp_finish writes it
// (lines 163-170): "sip dip sport dport size start_ns fct_ns ideal_ns",
// addresses as 8 hex digits of 11.x.y.1 for node x * 256 + y (line 155),
// source ports from 10000 per host pair in flow order (line 988; the
// sockets themselves bind ports from 10000 per source host).
//
// What is built:
// - every node an IP node; hosts and switches are the file's roles. Each
//   link a point-to-point link at the file's rate (scaled by 1502/1500 so a
//   1500-byte IP packet in its 2-byte PPP frame takes the time syncsim gives
//   1500 bytes) and delay; error rates other than 0 are refused.
// - switch ports: StepMarkQueue (dctcp-models.h), drop-tail of --buffer_kb
//   marking CE at K = --ecn_k_pkts packets waiting, as syncsim's switch
//   ports; no queue disc is installed. Host NICs: FlowRRQueue (below),
//   flows served round robin as syncsim's NICs serve them, drop-tail of
//   --host_buffer_kb, marking at --host_k_pkts (default K);
//   --host_queue=fifo makes them a single FIFO.
// - routing: shortest paths by hop count through switches only (hosts do
//   not forward), as third.cc's CalculateRoute (lines 223-268) and
//   syncsim's netsim.BuildRoutes, with per-flow ECMP: each node hashes the
//   5-tuple with its id onto its equal-cost next hops (--ecmp_salt other
//   than 0 mixes into every node's salt: another draw of paths for the same
//   flows; 0 keeps the default's). ns-3.37's
//   Ipv4GlobalRouting offers only per-packet random ECMP
//   (RandomEcmpRouting), which reorders every TCP flow, so this file routes
//   with its own FlowEcmpRouting.
// - flows: a BulkSendApplication of size bytes started at start_time on the
//   source, bound to the flow's source port, towards a PacketSink on the
//   destination's dport. A flow completes when its sink has received size
//   bytes.
// - TCP: TcpDctcp with syncsim's defaults (transport.DefaultConfig): MSS
//   1460, 40-byte headers (no timestamps, no SACK), initial window 10, one
//   ACK per segment, 1 ms minimum RTO with no clock-granularity term,
//   g = 1/16, alpha starting at 1; the reduction and growth arithmetic of
//   syncsim's default dctcp_cwr=hold (--recovery=prr-linux --ca=bytes; see
//   docs/validation.md, R1) unless told otherwise.
//
// FCT: --fct_from=connect (default) counts from the moment the sender's
// connection is established, i.e. when its first data can leave, because
// syncsim opens no connection; --fct_from=start counts from the file's
// start_time, handshake included. --fct_end=ack (default) ends it when the
// sender has the last byte acknowledged, as third.cc's qp_finish and
// syncsim's fct_out do, and the ideal FCT (last column) is qp_finish's
// standalone_fct with syncsim's packet (payload 1460 B, header 40 B):
// twice the path's propagation plus one payload's serialisation per link,
// plus size + 40 B per segment at the path's slowest link, in integer
// nanoseconds. --fct_end=rx ends it when the receiver has every byte, and
// the ideal is then one-way: the wire bytes at the slowest link, plus the
// propagation, plus the store-and-forward of the last segment at every link
// after the first (the completion on an empty network with no window
// limit).
//
// Printed at the end (stdout): flows, flows_done (received whole),
// flows_acked, sim_s (when the last flow completed), handshake_mean_us,
// ecn_marks and drops at the switch ports, host_ecn_marks and host_drops at
// the host NICs, max_rss_mb, and cpu_s, the process's user + system CPU
// time (getrusage).

#include "dctcp-models.h"

#include <sys/resource.h>

#include <cctype>
#include <cinttypes>
#include <cstdlib>
#include <fstream>
#include <deque>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <unordered_map>

// Fatal prints one line and exits with status 2.
[[noreturn]] static void
Fatal(const std::string& msg)
{
    std::fprintf(stderr, "filerun: %s\n", msg.c_str());
    std::exit(2);
}

// HostIP is third.cc's node_id_to_ip (line 155): 11.x.y.1, x * 256 + y = id.
static Ipv4Address
HostIP(uint32_t id)
{
    return Ipv4Address(0x0b000001 + (id / 256) * 0x00010000 + (id % 256) * 0x00000100);
}

// Mix is a 64-bit finaliser (splitmix64's) used as the ECMP hash.
static uint64_t
Mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

// Hop is one equal-cost next hop: the outgoing interface and the address of
// the neighbour's end of the link.
struct Hop
{
    uint32_t iface;
    Ipv4Address gateway;
    Ptr<Ipv4Route> route; // built on first use
};

// FlowEcmpRouting forwards by destination host address along precomputed
// equal-cost next hops, choosing among them by a hash of the packet's
// 5-tuple and the node's id, so a flow keeps one path.
class FlowEcmpRouting : public Ipv4RoutingProtocol
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("FlowEcmpRouting")
                                .SetParent<Ipv4RoutingProtocol>()
                                .AddConstructor<FlowEcmpRouting>();
        return tid;
    }

    // table: destination address -> next hops (filled after the links).
    mutable std::unordered_map<uint32_t, std::vector<Hop>> table;
    uint64_t salt = 0;

    Ptr<Ipv4Route> RouteOutput(Ptr<Packet> p,
                               const Ipv4Header& header,
                               Ptr<NetDevice> oif,
                               Socket::SocketErrno& sockerr) override
    {
        Hop* h = Pick(p, header);
        if (h == nullptr)
        {
            sockerr = Socket::ERROR_NOROUTETOHOST;
            return nullptr;
        }
        sockerr = Socket::ERROR_NOTERROR;
        return Route(*h, header.GetDestination());
    }

    bool RouteInput(Ptr<const Packet> p,
                    const Ipv4Header& header,
                    Ptr<const NetDevice> idev,
                    UnicastForwardCallback ucb,
                    MulticastForwardCallback mcb,
                    LocalDeliverCallback lcb,
                    ErrorCallback ecb) override
    {
        // A node's own addresses are never in its table.
        Hop* h = Pick(p, header);
        if (h != nullptr)
        {
            ucb(Route(*h, header.GetDestination()), p, header);
            return true;
        }
        uint32_t iif = m_ipv4->GetInterfaceForDevice(idev);
        if (m_ipv4->IsDestinationAddress(header.GetDestination(), iif))
        {
            lcb(p, header, iif);
            return true;
        }
        return false;
    }

    void NotifyInterfaceUp(uint32_t) override
    {
    }

    void NotifyInterfaceDown(uint32_t) override
    {
    }

    void NotifyAddAddress(uint32_t, Ipv4InterfaceAddress) override
    {
    }

    void NotifyRemoveAddress(uint32_t, Ipv4InterfaceAddress) override
    {
    }

    void SetIpv4(Ptr<Ipv4> ipv4) override
    {
        m_ipv4 = ipv4;
    }

    void PrintRoutingTable(Ptr<OutputStreamWrapper> stream, Time::Unit) const override
    {
        *stream->GetStream() << "FlowEcmpRouting: " << table.size() << " destinations\n";
    }

  private:
    Ptr<Ipv4> m_ipv4;

    Hop* Pick(Ptr<const Packet> p, const Ipv4Header& header) const
    {
        auto it = table.find(header.GetDestination().Get());
        if (it == table.end() || it->second.empty())
        {
            return nullptr;
        }
        std::vector<Hop>& hops = it->second;
        if (hops.size() == 1)
        {
            return &hops[0];
        }
        uint64_t key = Mix(salt ^ (uint64_t(header.GetSource().Get()) << 32 |
                                   header.GetDestination().Get()));
        key = Mix(key ^ header.GetProtocol());
        uint8_t ports[4] = {0, 0, 0, 0};
        if (p && p->GetSize() >= 4)
        {
            p->CopyData(ports, 4); // TCP and UDP both start with the two ports
        }
        key = Mix(key ^ (uint64_t(ports[0]) << 24 | uint64_t(ports[1]) << 16 |
                         uint64_t(ports[2]) << 8 | ports[3]));
        return &hops[key % hops.size()];
    }

    Ptr<Ipv4Route> Route(Hop& h, Ipv4Address dst) const
    {
        if (!h.route)
        {
            h.route = Create<Ipv4Route>();
            h.route->SetDestination(dst);
            h.route->SetGateway(h.gateway);
            h.route->SetSource(m_ipv4->GetAddress(h.iface, 0).GetLocal());
            h.route->SetOutputDevice(m_ipv4->GetNetDevice(h.iface));
        }
        return h.route;
    }
};

NS_OBJECT_ENSURE_REGISTERED(FlowEcmpRouting);

// FlowEcmpHelper gives every node a FlowEcmpRouting when the stack is
// installed.
class FlowEcmpHelper : public Ipv4RoutingHelper
{
  public:
    FlowEcmpHelper* Copy() const override
    {
        return new FlowEcmpHelper(*this);
    }

    Ptr<Ipv4RoutingProtocol> Create(Ptr<Node>) const override
    {
        return CreateObject<FlowEcmpRouting>();
    }
};

// FlowRRQueue is a host NIC's queue as syncsim's hosts serve their flows
// (netsim's NIC backpressure: backlogged endpoints take turns packet by
// packet): one FIFO per flow (its 5-tuple, read from the PPP and IPv4
// headers the packets carry here), served round robin, drop-tail on the
// total bytes. It marks an ECT packet CE when it finds at least k packets
// waiting in all (0: never): ns-3.37 has neither TCP small queues nor
// RFC 7661's rule that a window grows only while it limits the sender, so
// without a signal a window grows as long as the NIC queues it.
class FlowRRQueue : public StepMarkQueue
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid =
            TypeId("FlowRRQueue").SetParent<StepMarkQueue>().AddConstructor<FlowRRQueue>();
        return tid;
    }

    bool Enqueue(Ptr<Packet> p) override
    {
        uint64_t key = Key(p);
        if (!StepMarkQueue::Enqueue(p))
        {
            return false;
        }
        auto& fifo = m_flows[key];
        if (fifo.empty())
        {
            m_turns.push_back(key);
        }
        fifo.push_back(std::prev(GetContainer().end()));
        return true;
    }

    Ptr<Packet> Dequeue() override
    {
        if (m_turns.empty())
        {
            return nullptr;
        }
        uint64_t key = m_turns.front();
        m_turns.pop_front();
        auto it = m_flows.find(key);
        ConstIterator pos = it->second.front();
        it->second.pop_front();
        if (it->second.empty())
        {
            m_flows.erase(it);
        }
        else
        {
            m_turns.push_back(key);
        }
        Account();
        return DoDequeue(pos);
    }

    Ptr<Packet> Remove() override
    {
        return Dequeue();
    }

    Ptr<const Packet> Peek() const override
    {
        if (m_turns.empty())
        {
            return nullptr;
        }
        return DoPeek(m_flows.at(m_turns.front()).front());
    }

  private:
    std::unordered_map<uint64_t, std::deque<ConstIterator>> m_flows;
    std::deque<uint64_t> m_turns;

    static uint64_t Key(Ptr<const Packet> p)
    {
        uint8_t b[26] = {0}; // PPP (2), IPv4 without options (20), ports (4)
        p->CopyData(b, sizeof b);
        uint64_t k = 0;
        for (int i = 14; i < 26; i++) // addresses and ports
        {
            k = k * 0x100000001b3ULL ^ b[i];
        }
        return k ^ b[11]; // protocol
    }
};

NS_OBJECT_ENSURE_REGISTERED(FlowRRQueue);

// Link is one line of topology.txt and what was built for it.
struct Link
{
    uint32_t a, b;
    uint64_t bps; // the file's rate
    int64_t delayNs;
    uint32_t ifA = 0, ifB = 0;
    Ipv4Address addrA, addrB;
};

// FlowSpec is one line of flow.txt and its outcome.
struct FlowSpec
{
    uint32_t src, dst, pg, dport;
    uint64_t size;
    double startS;
    uint16_t sport = 0; // third.cc's: from 10000 per host pair (written)
    uint16_t bound = 0; // the socket's: from 10000 per source host (ns-3
                        // binds one local address and port once)
    uint64_t rx = 0;
    Time start, connected = Time(-1), done = Time(-1), acked = Time(-1);
    int64_t idealNs = 0;
    Ptr<BulkSendApplication> app;
};

static std::vector<FlowSpec> g_flows;
// g_byKey finds a flow from its sink: (destination, source address, source
// port, destination port).
static std::map<std::tuple<uint32_t, uint32_t, uint16_t, uint16_t>, uint32_t> g_byKey;
static uint32_t g_done = 0, g_acked = 0;
static std::string g_fctFrom = "connect";
static std::string g_fctEnd = "ack";

// OnRx counts a flow's bytes at its sink and completes it at size bytes.
static void
OnRx(uint32_t dst, uint16_t dport, Ptr<const Packet> p, const Address& from)
{
    InetSocketAddress a = InetSocketAddress::ConvertFrom(from);
    auto it = g_byKey.find({dst, a.GetIpv4().Get(), a.GetPort(), dport});
    if (it == g_byKey.end())
    {
        Fatal("a sink received bytes of no flow in the file (internal error)");
    }
    FlowSpec& f = g_flows[it->second];
    f.rx += p->GetSize();
    if (f.rx >= f.size && f.done.IsNegative())
    {
        f.done = Simulator::Now();
        if (++g_done == g_flows.size() && g_fctEnd == "rx")
        {
            Simulator::Stop();
        }
    }
}

// OnAck completes a flow at its sender when the data's last byte is
// acknowledged (the SYN takes sequence number 0, the data 1 .. size).
static void
OnAck(uint32_t i, SequenceNumber32, SequenceNumber32 ack)
{
    FlowSpec& f = g_flows[i];
    if (f.acked.IsNegative() && ack.GetValue() >= f.size + 1)
    {
        f.acked = Simulator::Now();
        if (++g_acked == g_flows.size() && g_fctEnd == "ack")
        {
            Simulator::Stop();
        }
    }
}

// OnTx notes when a sender first hands data to its socket: the moment its
// connection is established (BulkSendApplication::ConnectionSucceeded).
static void
OnTx(uint32_t i, Ptr<const Packet>)
{
    FlowSpec& f = g_flows[i];
    if (f.connected.IsNegative())
    {
        f.connected = Simulator::Now();
        f.app->GetSocket()->TraceConnectWithoutContext("HighestRxAck", MakeBoundCallback(&OnAck, i));
    }
}

static std::ifstream
Open(const std::string& path, const char* what)
{
    std::ifstream in(path);
    if (!in)
    {
        Fatal(std::string("cannot read the ") + what + " file " + path);
    }
    return in;
}

static uint64_t
ParseRate(const std::string& s, const std::string& where)
{
    DataRate r;
    std::string unit = s;
    // DataRate's string constructor aborts on a bad string: check first.
    size_t i = 0;
    while (i < unit.size() && (std::isdigit(unsigned(unit[i])) || unit[i] == '.' || unit[i] == 'e'))
    {
        i++;
    }
    static const char* units[] = {"bps", "b/s", "Kbps", "Kb/s", "Mbps", "Mb/s", "Gbps", "Gb/s", "Tbps", "Tb/s",
                                  "kbps", "kb/s", "KBps", "MBps", "GBps"};
    bool ok = i > 0;
    if (ok)
    {
        ok = false;
        for (const char* u : units)
        {
            ok = ok || unit.substr(i) == u;
        }
    }
    if (!ok)
    {
        Fatal(where + ": rate '" + s + "' is not like 100Gbps");
    }
    r = DataRate(s);
    if (r.GetBitRate() == 0)
    {
        Fatal(where + ": rate '" + s + "' is zero");
    }
    return r.GetBitRate();
}

static int64_t
ParseDelay(const std::string& s, const std::string& where)
{
    size_t i = 0;
    while (i < s.size() && (std::isdigit(unsigned(s[i])) || s[i] == '.'))
    {
        i++;
    }
    std::string u = s.substr(i);
    if (i == 0 || !(u == "s" || u == "ms" || u == "us" || u == "ns" || u == "ps"))
    {
        Fatal(where + ": delay '" + s + "' is not like 0.001ms or 1000ns");
    }
    return Time(s).GetNanoSeconds();
}

int
main(int argc, char* argv[])
{
    std::string topoFile, flowFile, fctFile;
    uint32_t k = 65;
    double bufferKB = 256;
    double hostBufferKB = 1 << 20;
    int64_t hostK = -1;
    std::string hostQueue = "rr";
    double minRtoUs = 1000;
    uint32_t initCwnd = 10;
    uint32_t maxFlows = 0;
    double stopS = 0;
    uint32_t seed = 1;
    uint64_t ecmpSalt = 0;
    std::string recovery = "prr-linux";
    std::string ca = "bytes";

    CommandLine cmd(__FILE__);
    cmd.AddValue("topology", "topology.txt in the HPCC branch's format", topoFile);
    cmd.AddValue("flows", "flow.txt in the HPCC branch's format", flowFile);
    cmd.AddValue("fct", "output: one line per completed flow in the branch's fct.txt layout", fctFile);
    cmd.AddValue("ecn_k_pkts", "marking threshold K at every switch port, packets (0: none)", k);
    cmd.AddValue("buffer_kb", "drop-tail buffer of every switch port, KB", bufferKB);
    cmd.AddValue("host_buffer_kb", "drop-tail buffer of every host NIC, KB", hostBufferKB);
    cmd.AddValue("host_queue", "host NIC service: rr (flows take turns, as syncsim's NICs) or fifo", hostQueue);
    cmd.AddValue("host_k_pkts", "marking threshold at host NICs, packets (0: none; -1: ecn_k_pkts)", hostK);
    cmd.AddValue("min_rto_us", "minimum RTO, us", minRtoUs);
    cmd.AddValue("init_cwnd", "initial window, segments", initCwnd);
    cmd.AddValue("max_flows", "read at most this many flows (0: the file's count)", maxFlows);
    cmd.AddValue("stop_s", "stop at this simulated time, s (0: when every flow is done)", stopS);
    cmd.AddValue("seed", "run number of ns-3's random streams", seed);
    cmd.AddValue("ecmp_salt", "mixed into every node's ECMP hash salt: another path draw (0: the default's)",
                 ecmpSalt);
    cmd.AddValue("fct_from", "connect (FCT from the established connection) or start (from start_time)",
                 g_fctFrom);
    cmd.AddValue("fct_end",
                 "ack (a flow completes when its sender has its last byte acknowledged, as third.cc's "
                 "qp_finish and syncsim's fct_out) or rx (when its receiver has every byte)",
                 g_fctEnd);
    cmd.AddValue("recovery", "window reduction in CWR: prr-linux (default), prr (ns-3's) or classic", recovery);
    cmd.AddValue("ca", "congestion-avoidance arithmetic: bytes (syncsim's, default) or linux-reno (ns-3's)", ca);
    cmd.Parse(argc, argv);
    if (topoFile.empty() || flowFile.empty() || fctFile.empty())
    {
        Fatal("--topology, --flows and --fct are required (see --help)");
    }
    if (bufferKB <= 0 || hostBufferKB <= 0 || minRtoUs <= 0 || initCwnd < 1 || stopS < 0 ||
        (g_fctFrom != "connect" && g_fctFrom != "start") || (g_fctEnd != "ack" && g_fctEnd != "rx") || (hostQueue != "rr" && hostQueue != "fifo") ||
        hostK < -1 ||
        (recovery != "prr" && recovery != "classic" && recovery != "prr-linux") ||
        (ca != "linux-reno" && ca != "bytes"))
    {
        Fatal("bad parameters (see --help)");
    }
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(seed);
    ObjectFactory heap;
    heap.SetTypeId("ns3::HeapScheduler");
    Simulator::SetScheduler(heap);

    Config::SetDefault(
        "ns3::TcpL4Protocol::SocketType",
        TypeIdValue(ca == "bytes" ? TcpDctcpBytes::GetTypeId() : TcpDctcp::GetTypeId()));
    TypeId rec = TcpPrrLinux::GetTypeId();
    if (recovery == "classic")
    {
        rec = TcpClassicRecovery::GetTypeId();
    }
    else if (recovery == "prr")
    {
        rec = TcpPrrRecovery::GetTypeId();
    }
    Config::SetDefault("ns3::TcpL4Protocol::RecoveryType", TypeIdValue(rec));
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(1460));
    Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(initCwnd));
    Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(1));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(1 << 26));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(1 << 26));
    Config::SetDefault("ns3::TcpSocket::ConnTimeout", TimeValue(MicroSeconds(minRtoUs)));
    Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(false));
    Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(false));
    Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(MicroSeconds(minRtoUs)));
    Config::SetDefault("ns3::TcpSocketBase::ClockGranularity", TimeValue(NanoSeconds(1)));
    Config::SetDefault("ns3::TcpDctcp::DctcpShiftG", DoubleValue(1.0 / 16));
    Config::SetDefault("ns3::TcpDctcp::DctcpAlphaOnInit", DoubleValue(1.0));

    // topology.txt
    std::ifstream topo = Open(topoFile, "topology");
    uint32_t nNodes = 0, nSwitches = 0, nLinks = 0;
    if (!(topo >> nNodes >> nSwitches >> nLinks) || nNodes == 0 || nSwitches > nNodes)
    {
        Fatal(topoFile + ": the first line must be 'nodes switches links'");
    }
    std::vector<bool> isSwitch(nNodes, false);
    for (uint32_t i = 0; i < nSwitches; i++)
    {
        uint32_t id;
        if (!(topo >> id) || id >= nNodes || isSwitch[id])
        {
            Fatal(topoFile + ": switch id " + std::to_string(i + 1) + " is missing, repeated or not below " +
                  std::to_string(nNodes));
        }
        isSwitch[id] = true;
    }
    std::vector<Link> links(nLinks);
    for (uint32_t i = 0; i < nLinks; i++)
    {
        std::string rate, delay;
        double err;
        std::string where = topoFile + " link " + std::to_string(i + 1);
        if (!(topo >> links[i].a >> links[i].b >> rate >> delay >> err))
        {
            Fatal(where + ": expected 'src dst rate delay error_rate'");
        }
        if (links[i].a >= nNodes || links[i].b >= nNodes || links[i].a == links[i].b)
        {
            Fatal(where + ": endpoints must be distinct nodes below " + std::to_string(nNodes));
        }
        if (err != 0)
        {
            Fatal(where + ": error_rate " + std::to_string(err) + " is not supported (only 0)");
        }
        links[i].bps = ParseRate(rate, where);
        links[i].delayNs = ParseDelay(delay, where);
    }

    NodeContainer nodes;
    nodes.Create(nNodes);
    InternetStackHelper stack;
    FlowEcmpHelper routing;
    stack.SetRoutingHelper(routing);
    stack.Install(nodes);

    uint32_t buffer = static_cast<uint32_t>(std::llround(bufferKB * 1000));
    uint32_t hostBuffer = static_cast<uint32_t>(std::min<double>(std::llround(hostBufferKB * 1000), 4e9));
    std::vector<Ptr<StepMarkQueue>> switchQueues, hostQueues;
    std::vector<bool> hasAddr(nNodes, false);
    std::vector<std::vector<std::pair<uint32_t, uint32_t>>> adj(nNodes); // (neighbour, link)
    uint32_t subnet = 0;
    for (uint32_t i = 0; i < nLinks; i++)
    {
        Link& l = links[i];
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", DataRateValue(DataRate(static_cast<uint64_t>(std::llround(l.bps * 1502.0 / 1500.0)))));
        p2p.SetChannelAttribute("Delay", TimeValue(NanoSeconds(l.delayNs)));
        NetDeviceContainer d = p2p.Install(nodes.Get(l.a), nodes.Get(l.b));
        uint32_t ends[2] = {l.a, l.b};
        for (uint32_t j = 0; j < 2; j++)
        {
            uint32_t id = ends[j];
            Ptr<StepMarkQueue> q;
            if (isSwitch[id] || hostQueue == "fifo")
            {
                q = CreateObject<StepMarkQueue>();
            }
            else
            {
                q = CreateObject<FlowRRQueue>();
            }
            if (isSwitch[id])
            {
                q->SetMaxSize(QueueSize(QueueSizeUnit::BYTES, buffer));
                q->k = k;
                switchQueues.push_back(q);
            }
            else
            {
                q->SetMaxSize(QueueSize(QueueSizeUnit::BYTES, hostBuffer));
                q->k = hostK < 0 ? k : static_cast<uint32_t>(hostK);
                hostQueues.push_back(q);
            }
            q->Open();
            DynamicCast<PointToPointNetDevice>(d.Get(j))->SetQueue(q);
            // A host's first link carries its file address; every other end
            // gets one of 10.0.0.0/8, one per end.
            Ipv4Address addr;
            if (!isSwitch[id] && !hasAddr[id])
            {
                addr = HostIP(id);
                hasAddr[id] = true;
            }
            else
            {
                subnet++;
                addr = Ipv4Address(0x0a000000 + subnet);
            }
            Ptr<Ipv4> ip = nodes.Get(id)->GetObject<Ipv4>();
            uint32_t ifc = ip->AddInterface(d.Get(j));
            ip->AddAddress(ifc, Ipv4InterfaceAddress(addr, Ipv4Mask("255.255.255.255")));
            ip->SetUp(ifc);
            (j == 0 ? l.ifA : l.ifB) = ifc;
            (j == 0 ? l.addrA : l.addrB) = addr;
        }
        adj[l.a].push_back({l.b, i});
        adj[l.b].push_back({l.a, i});
    }
    // Interfaces added by hand get no queue disc (Ipv4AddressHelper would
    // install one): the device queue is the only queue, as in syncsim.
    for (uint32_t i = 0; i < nNodes; i++)
    {
        Ptr<TrafficControlLayer> tc = nodes.Get(i)->GetObject<TrafficControlLayer>();
        for (uint32_t j = 0; tc && j < nodes.Get(i)->GetNDevices(); j++)
        {
            if (tc->GetRootQueueDiscOnDevice(nodes.Get(i)->GetDevice(j)))
            {
                Fatal("a queue disc was installed (internal error)");
            }
        }
    }

    // Routes: breadth-first from every host over switches; a node's next
    // hops towards host h are its neighbours one hop closer to h.
    std::vector<std::vector<int>> distTo(nNodes);
    for (uint32_t h = 0; h < nNodes; h++)
    {
        if (isSwitch[h])
        {
            continue;
        }
        std::vector<int>& dist = distTo[h];
        dist.assign(nNodes, -1);
        dist[h] = 0;
        std::vector<uint32_t> q{h};
        for (size_t qi = 0; qi < q.size(); qi++)
        {
            uint32_t u = q[qi];
            if (u != h && !isSwitch[u])
            {
                continue; // hosts do not forward
            }
            for (auto& e : adj[u])
            {
                if (dist[e.first] < 0)
                {
                    dist[e.first] = dist[u] + 1;
                    q.push_back(e.first);
                }
            }
        }
        Ipv4Address dst = HostIP(h);
        for (uint32_t u = 0; u < nNodes; u++)
        {
            if (u == h || dist[u] < 0)
            {
                continue;
            }
            Ptr<FlowEcmpRouting> r =
                DynamicCast<FlowEcmpRouting>(nodes.Get(u)->GetObject<Ipv4>()->GetRoutingProtocol());
            r->salt = ecmpSalt == 0 ? Mix(u + 1) : Mix(Mix(ecmpSalt) ^ (u + 1));
            for (auto& e : adj[u])
            {
                uint32_t v = e.first;
                if (dist[v] == dist[u] - 1 && (v == h || isSwitch[v]))
                {
                    const Link& l = links[e.second];
                    bool fromA = l.a == u;
                    r->table[dst.Get()].push_back({fromA ? l.ifA : l.ifB, fromA ? l.addrB : l.addrA, nullptr});
                }
            }
        }
    }

    // flow.txt
    std::ifstream fin = Open(flowFile, "flow");
    uint64_t count = 0;
    if (!(fin >> count))
    {
        Fatal(flowFile + ": the first line must be the number of flows");
    }
    if (maxFlows > 0 && maxFlows < count)
    {
        count = maxFlows;
    }
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> nextPort;
    std::map<uint32_t, uint32_t> nextBound;
    double lastStart = 0;
    for (uint64_t i = 0; i < count; i++)
    {
        FlowSpec f;
        std::string where = flowFile + " flow " + std::to_string(i + 1);
        if (!(fin >> f.src >> f.dst >> f.pg >> f.dport >> f.size >> f.startS))
        {
            Fatal(where + ": expected 'src dst pg dport size start_time'");
        }
        if (f.src >= nNodes || f.dst >= nNodes || isSwitch[f.src] || isSwitch[f.dst] || f.src == f.dst)
        {
            Fatal(where + ": source and destination must be distinct hosts of the topology");
        }
        if (f.size == 0 || f.dport == 0 || f.dport > 65535 || !(f.startS >= lastStart))
        {
            Fatal(where + ": size and dport must be positive and start times ascending");
        }
        if (distTo[f.dst][f.src] < 0)
        {
            Fatal(where + ": no path from host " + std::to_string(f.src) + " to " + std::to_string(f.dst));
        }
        lastStart = f.startS;
        auto& port = nextPort[{f.src, f.dst}];
        if (port == 0)
        {
            port = 10000;
        }
        if (port > 65535)
        {
            Fatal(where + ": more than 55536 flows between one pair of hosts");
        }
        f.sport = static_cast<uint16_t>(port++);
        auto& bound = nextBound[f.src];
        if (bound == 0)
        {
            bound = 10000;
        }
        if (bound > 65535)
        {
            Fatal(where + ": more than 55536 flows from one host");
        }
        f.bound = static_cast<uint16_t>(bound++);
        f.start = NanoSeconds(std::llround(f.startS * 1e9));
        g_flows.push_back(f);
    }

    // The ideal FCT along one shortest path (every shortest path of the
    // files used here has the same rates and delays).
    for (FlowSpec& f : g_flows)
    {
        const std::vector<int>& dist = distTo[f.dst];
        uint64_t wire = f.size + (f.size + 1459) / 1460 * 40;
        uint64_t last = std::min<uint64_t>(f.size, 1460) + 40;
        uint64_t slowest = UINT64_MAX;
        int64_t prop = 0, txPayload = 0;
        double fwd = 0; // seconds
        uint32_t u = f.src;
        bool first = true;
        while (u != f.dst)
        {
            const std::pair<uint32_t, uint32_t>* next = nullptr;
            for (auto& e : adj[u])
            {
                if (dist[e.first] == dist[u] - 1 && (e.first == f.dst || isSwitch[e.first]))
                {
                    next = &e;
                    break;
                }
            }
            const Link& l = links[next->second];
            slowest = std::min(slowest, l.bps);
            prop += l.delayNs;
            txPayload += static_cast<int64_t>(1460 * 8000000000ULL / l.bps);
            if (!first)
            {
                fwd += last * 8.0 / l.bps;
            }
            first = false;
            u = next->first;
        }
        if (g_fctEnd == "ack")
        {
            // qp_finish's standalone_fct (third.cc lines 165-167, 917-919)
            // with syncsim's packet: payload 1460, header 40.
            f.idealNs = 2 * prop + txPayload + static_cast<int64_t>(wire * 8000000000ULL / slowest);
        }
        else
        {
            f.idealNs = prop + std::llround((wire * 8.0 / slowest + fwd) * 1e9);
        }
    }

    // Sinks, one per destination host and port; senders, one per flow.
    std::set<std::pair<uint32_t, uint16_t>> sinks;
    for (uint32_t i = 0; i < g_flows.size(); i++)
    {
        FlowSpec& f = g_flows[i];
        uint16_t dport = static_cast<uint16_t>(f.dport);
        if (sinks.insert({f.dst, dport}).second)
        {
            PacketSinkHelper sh("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), dport));
            ApplicationContainer a = sh.Install(nodes.Get(f.dst));
            a.Start(Seconds(0));
            a.Get(0)->TraceConnectWithoutContext("Rx", MakeBoundCallback(&OnRx, f.dst, dport));
        }
        g_byKey[{f.dst, HostIP(f.src).Get(), f.bound, dport}] = i;
        BulkSendHelper bulk("ns3::TcpSocketFactory", InetSocketAddress(HostIP(f.dst), dport));
        bulk.SetAttribute("MaxBytes", UintegerValue(f.size));
        bulk.SetAttribute("SendSize", UintegerValue(1460));
        bulk.SetAttribute("Local", AddressValue(InetSocketAddress(HostIP(f.src), f.bound)));
        ApplicationContainer a = bulk.Install(nodes.Get(f.src));
        a.Start(f.start);
        f.app = DynamicCast<BulkSendApplication>(a.Get(0));
        a.Get(0)->TraceConnectWithoutContext("Tx", MakeBoundCallback(&OnTx, i));
    }

    if (stopS > 0)
    {
        Simulator::Stop(Seconds(stopS));
    }
    Simulator::Run();
    Time end = Simulator::Now();

    FILE* out = std::fopen(fctFile.c_str(), "w");
    if (out == nullptr)
    {
        Fatal("cannot write " + fctFile);
    }
    for (const FlowSpec& f : g_flows)
    {
        Time to = g_fctEnd == "ack" ? f.acked : f.done;
        if (to.IsNegative())
        {
            continue;
        }
        Time from = g_fctFrom == "start" ? f.start : f.connected;
        std::fprintf(out, "%08x %08x %u %u %" PRIu64 " %" PRId64 " %" PRId64 " %" PRId64 "\n",
                     HostIP(f.src).Get(), HostIP(f.dst).Get(), f.sport, f.dport, f.size,
                     f.start.GetNanoSeconds(), (to - from).GetNanoSeconds(), f.idealNs);
    }
    std::fclose(out);

    uint64_t marks = 0, drops = 0;
    for (auto& q : switchQueues)
    {
        marks += q->marks;
        drops += q->drops;
    }
    double handshake = 0;
    uint32_t nh = 0;
    for (const FlowSpec& f : g_flows)
    {
        if (!f.connected.IsNegative())
        {
            handshake += (f.connected - f.start).GetSeconds();
            nh++;
        }
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    double cpu = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
    std::printf("flows %zu\n", g_flows.size());
    std::printf("flows_done %u\n", g_done);
    std::printf("flows_acked %u\n", g_acked);
    std::printf("sim_s %.9f\n", end.GetSeconds());
    std::printf("handshake_mean_us %.3f\n", nh > 0 ? handshake / nh * 1e6 : 0.0);
    std::printf("ecn_marks %" PRIu64 "\n", marks);
    std::printf("drops %" PRIu64 "\n", drops);
    uint64_t hostMarks = 0, hostDrops = 0;
    for (auto& q : hostQueues)
    {
        hostMarks += q->marks;
        hostDrops += q->drops;
    }
    std::printf("host_ecn_marks %" PRIu64 "\n", hostMarks);
    std::printf("host_drops %" PRIu64 "\n", hostDrops);
    std::printf("max_rss_mb %.1f\n", ru.ru_maxrss / 1024.0);
    std::printf("cpu_s %.2f\n", cpu);
    Simulator::Destroy();
    return 0;
}
