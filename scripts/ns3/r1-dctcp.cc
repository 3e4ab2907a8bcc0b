// r1-dctcp.cc: syncsim's reference run R1 (the incast experiment) in ns-3.37,
// built and run by scripts/ns3/run.sh.
//
// N DCTCP senders and one receiver on one switch, every cable the same rate
// and propagation delay; the switch port towards the receiver is the
// bottleneck. It prints the statistics syncsim's incast experiment prints,
// over the same window [warmup, duration):
//
//   goodput_gbps     payload the receiving application got, per second
//   jain             Jain's index of the senders' goodput
//   queue_mean_pkts  time average of the packets waiting at the bottleneck
//                    (the one being serialised excluded, as syncsim's
//                    switchmodel.QueueConfig counts), integrated exactly at
//                    every enqueue and dequeue
//   queue_max_pkts   the largest such count
//   queue_min_pkts   the smallest count sampled every sample_us
//   ecn_marks        packets marked CE at the switch's ports
//   drops            packets dropped at the switch's ports
//
// The switch ports are device queues of this file's StepMarkQueue: a
// drop-tail FIFO of buffer bytes that marks an arriving ECT packet CE when
// it finds at least K packets waiting (DCTCP, Alizadeh et al. 2010,
// Sec. 3.1), as syncsim's switch ports do. Traffic control is removed from
// every device, so the device queue is the only queue, as in syncsim. The
// hosts' NICs are the same queue without marking.
//
// Matched to syncsim's incast (scenarios/network/incast.go and the
// transport defaults): MSS 1460 and 40-byte headers (no TCP timestamps,
// no SACK), initial window 10, one ACK per segment with an exact ECN echo
// (DelAckCount 1; ns-3's DCTCP receiver then echoes each segment's CE), a
// 1 ms minimum RTO with no clock-granularity term, g = 1/16, alpha
// starting at 1, flows starting at uniform random times in
// [0, start_jitter_us). Rates are scaled by 1502/1500 so that a 1500-byte
// IP packet in its 2-byte PPP frame is serialised in the time syncsim
// gives 1500 bytes. The remaining differences are listed in run.sh.

#include "dctcp-models.h"

static std::vector<Ptr<StepMarkQueue>> g_switchQueues;
static Ptr<StepMarkQueue> g_bottleneck;
static std::map<uint32_t, uint64_t> g_rxBySender; // by sender IPv4 address
static uint32_t g_minSampled = std::numeric_limits<uint32_t>::max();

static void
OnRx(Ptr<const Packet> p, const Address& from)
{
    g_rxBySender[InetSocketAddress::ConvertFrom(from).GetIpv4().Get()] += p->GetSize();
}

static void
Sample(Time period, Time end)
{
    g_minSampled = std::min(g_minSampled, g_bottleneck->GetNPackets());
    if (Simulator::Now() + period <= end)
    {
        Simulator::Schedule(period, &Sample, period, end);
    }
}

int
main(int argc, char* argv[])
{
    uint32_t senders = 8;
    double linkGbps = 10;
    double delayUs = 10;
    uint32_t k = 65;
    double bufferKB = 1000;
    double durationMs = 1000;
    double warmupMs = -1;
    double jitterUs = 10;
    double minRtoUs = 1000;
    double sampleUs = 10;
    uint32_t initCwnd = 10;
    uint32_t seed = 1;
    std::string recovery = "prr";
    std::string ca = "linux-reno";

    CommandLine cmd(__FILE__);
    cmd.AddValue("senders", "number of senders", senders);
    cmd.AddValue("link_gbps", "rate of every cable, Gbit/s", linkGbps);
    cmd.AddValue("delay_us", "propagation delay of every cable, us", delayUs);
    cmd.AddValue("ecn_k_pkts", "marking threshold K at the switch ports, packets", k);
    cmd.AddValue("buffer_kb", "drop-tail buffer of every port, KB", bufferKB);
    cmd.AddValue("duration_ms", "simulated time, ms", durationMs);
    cmd.AddValue("warmup_ms", "warm-up excluded from statistics, ms (negative: 10%)", warmupMs);
    cmd.AddValue("start_jitter_us", "flows start uniformly in [0, this), us", jitterUs);
    cmd.AddValue("min_rto_us", "minimum RTO, us", minRtoUs);
    cmd.AddValue("sample_us", "queue sampling period for queue_min_pkts, us", sampleUs);
    cmd.AddValue("init_cwnd", "initial window, segments", initCwnd);
    cmd.AddValue("seed", "run number of the random streams", seed);
    cmd.AddValue("recovery",
                 "window reduction in CWR: prr (ns-3's TcpPrrRecovery, the default), classic "
                 "(TcpClassicRecovery: cut at once) or prr-linux (Linux's PRR)",
                 recovery);
    cmd.AddValue("ca",
                 "congestion-avoidance arithmetic: linux-reno (ns-3's TcpDctcp) or bytes (syncsim's)",
                 ca);
    cmd.Parse(argc, argv);
    if (warmupMs < 0)
    {
        warmupMs = durationMs / 10;
    }
    if (senders < 1 || linkGbps <= 0 || delayUs < 0 || bufferKB <= 0 || durationMs <= warmupMs ||
        (recovery != "prr" && recovery != "classic" && recovery != "prr-linux") || (ca != "linux-reno" && ca != "bytes"))
    {
        std::fprintf(stderr, "r1-dctcp: bad parameters (see --help)\n");
        return 2;
    }
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(seed);

    Config::SetDefault(
        "ns3::TcpL4Protocol::SocketType",
        TypeIdValue(ca == "bytes" ? TcpDctcpBytes::GetTypeId() : TcpDctcp::GetTypeId()));
    TypeId rec = TcpPrrRecovery::GetTypeId();
    if (recovery == "classic")
    {
        rec = TcpClassicRecovery::GetTypeId();
    }
    else if (recovery == "prr-linux")
    {
        rec = TcpPrrLinux::GetTypeId();
    }
    Config::SetDefault("ns3::TcpL4Protocol::RecoveryType", TypeIdValue(rec));
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(1460));
    Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(initCwnd));
    Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(1));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(1 << 26));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(1 << 26));
    Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(false));
    Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(false));
    Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(MicroSeconds(minRtoUs)));
    Config::SetDefault("ns3::TcpSocketBase::ClockGranularity", TimeValue(NanoSeconds(1)));
    Config::SetDefault("ns3::TcpDctcp::DctcpShiftG", DoubleValue(1.0 / 16));
    Config::SetDefault("ns3::TcpDctcp::DctcpAlphaOnInit", DoubleValue(1.0));

    NodeContainer hosts;
    hosts.Create(senders + 1);
    Ptr<Node> sw = CreateObject<Node>();
    InternetStackHelper stack;
    stack.Install(hosts);
    stack.Install(sw);

    // 1502-byte frames at 1502/1500 of the rate take the time 1500 bytes take.
    uint64_t bps = static_cast<uint64_t>(std::llround(linkGbps * 1e9 * 1502.0 / 1500.0));
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", DataRateValue(DataRate(bps)));
    p2p.SetChannelAttribute("Delay", TimeValue(NanoSeconds(std::llround(delayUs * 1000))));
    uint32_t buffer = static_cast<uint32_t>(std::llround(bufferKB * 1000));

    Ipv4AddressHelper addr;
    TrafficControlHelper tch;
    Ipv4Address recvAddr;
    for (uint32_t i = 0; i <= senders; i++)
    {
        NetDeviceContainer d = p2p.Install(hosts.Get(i), sw);
        for (uint32_t j = 0; j < 2; j++)
        {
            Ptr<StepMarkQueue> q = CreateObject<StepMarkQueue>();
            q->SetMaxSize(QueueSize(QueueSizeUnit::BYTES, buffer));
            if (j == 1)
            {
                q->k = k;
                g_switchQueues.push_back(q);
                if (i == senders)
                {
                    g_bottleneck = q;
                }
            }
            DynamicCast<PointToPointNetDevice>(d.Get(j))->SetQueue(q);
        }
        std::string net = "10." + std::to_string(i / 250) + "." + std::to_string(i % 250) + ".0";
        addr.SetBase(net.c_str(), "255.255.255.0");
        Ipv4InterfaceContainer ifs = addr.Assign(d);
        tch.Uninstall(d);
        if (i == senders)
        {
            recvAddr = ifs.GetAddress(0);
        }
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    const uint16_t port = 5000;
    PacketSinkHelper sinkHelper("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
    ApplicationContainer sinkApp = sinkHelper.Install(hosts.Get(senders));
    sinkApp.Start(Seconds(0));
    Ptr<PacketSink> sink = DynamicCast<PacketSink>(sinkApp.Get(0));
    sink->TraceConnectWithoutContext("Rx", MakeCallback(&OnRx));

    Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
    for (uint32_t i = 0; i < senders; i++)
    {
        BulkSendHelper bulk("ns3::TcpSocketFactory", InetSocketAddress(recvAddr, port));
        bulk.SetAttribute("MaxBytes", UintegerValue(0));
        bulk.SetAttribute("SendSize", UintegerValue(1460));
        ApplicationContainer a = bulk.Install(hosts.Get(i));
        double at = jitterUs > 0 ? u->GetValue(0, jitterUs) : 0;
        a.Start(NanoSeconds(std::llround(at * 1000)));
    }

    Time warm = NanoSeconds(std::llround(warmupMs * 1e6));
    Time end = NanoSeconds(std::llround(durationMs * 1e6));
    uint64_t rx0 = 0;
    std::map<uint32_t, uint64_t> per0;
    Simulator::Schedule(warm, [&]() {
        rx0 = sink->GetTotalRx();
        per0 = g_rxBySender;
        for (auto& q : g_switchQueues)
        {
            q->Open();
        }
    });
    if (sampleUs > 0)
    {
        Time period = NanoSeconds(std::llround(sampleUs * 1000));
        Time first = NanoSeconds(0);
        while (first < warm)
        {
            first += period;
        }
        Simulator::Schedule(first, &Sample, period, end);
    }
    Simulator::Stop(end);
    Simulator::Run();

    double win = (end - warm).GetSeconds();
    double goodput = (sink->GetTotalRx() - rx0) * 8 / win / 1e9;
    double s = 0, s2 = 0;
    for (auto& kv : g_rxBySender)
    {
        double x = kv.second - per0[kv.first];
        s += x;
        s2 += x * x;
    }
    double jain = s2 > 0 ? s * s / (senders * s2) : 0;
    uint64_t marks = 0, drops = 0;
    for (auto& q : g_switchQueues)
    {
        marks += q->marks;
        drops += q->drops;
    }
    std::printf("goodput_gbps %.5f\n", goodput);
    std::printf("jain %.5f\n", jain);
    std::printf("queue_mean_pkts %.4f\n", g_bottleneck->Mean(end));
    std::printf("queue_max_pkts %u\n", g_bottleneck->maxPkts);
    if (sampleUs > 0)
    {
        std::printf("queue_min_pkts %u\n", g_minSampled);
    }
    std::printf("ecn_marks %llu\n", static_cast<unsigned long long>(marks));
    std::printf("drops %llu\n", static_cast<unsigned long long>(drops));
    Simulator::Destroy();
    return 0;
}
