// r1_incast.cpp: syncsim's R1 scenario (incast, 8 long-lived DCTCP senders
// into one 10 Gbit/s switch port) written against htsim's library, so that
// htsim's CPU time on the same workload can be set beside syncsim's.
//
// Topology: sender i -> NIC queue -> cable -> switch port to the receiver
// (the bottleneck) -> cable -> receiver; ACKs go back through the
// receiver's NIC queue, a cable, the switch port to sender i and a cable.
// Every cable is 10 Gbit/s with 10 us of propagation delay each way.
//
// Where htsim's stock behaviour differs from R1, the driver adjusts it here
// rather than in the library:
//   - the bottleneck marks CE on arrival when at least K packets wait behind
//     the one being transmitted, and its 1000 KB drop-tail limit counts
//     waiting packets only (htsim's ECNQueue marks on departure and counts
//     the packet on the wire);
//   - the retransmission timeout is floored at 1 ms (htsim's TcpSrc floors
//     it at 250 ms);
//   - a segment is 1500 B on the wire, of which 1460 B count as payload
//     (htsim has no headers, so its MSS is the whole packet).
//
// Usage: r1_incast [-senders N] [-duration_ms MS] [-warmup_ms MS] [-seed S]
// Statistics cover [warmup, duration), warm-up defaulting to 10% of the run.

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "config.h"
#include "dctcp.h"
#include "ecn.h"
#include "eventlist.h"
#include "network.h"
#include "pipe.h"
#include "queue.h"
#include "tcp.h"

namespace {

const int kWireBytes = 1500;   // full segment on the wire
const int kPayloadBytes = 1460; // its payload (syncsim: MSS 1460 + 40 B header)
const double kLinkGbps = 10;
const double kDelayUs = 10;
const int kECNK = 65;                // packets
const mem_b kBufferBytes = 1000000;  // 1000 KB, 1 KB = 1000 B
const double kMinRTOUs = 1000;
const double kStartJitterUs = 10;
const double kRtxScanUs = 100;       // granularity of htsim's timeout scanner
const double kSampleUs = 10;         // queue sampling period (syncsim's sample_us)

// BottleneckQueue is a FIFO that marks and drops the way syncsim's switch
// port does, and keeps the statistics R1 reports.
class BottleneckQueue : public Queue {
public:
    BottleneckQueue(linkspeed_bps rate, mem_b buffer, int k, EventList& ev)
        : Queue(rate, (mem_b)1 << 50, ev, nullptr), _buffer(buffer), _k(k) {}

    void receivePacket(Packet& pkt) override {
        advance();
        int waiting = _enqueued.empty() ? 0 : _enqueued.size() - 1;
        mem_b waitingBytes = _enqueued.empty() ? 0 : _queuesize - _enqueued.next_to_pop()->size();
        if (waitingBytes + pkt.size() > _buffer) {
            drops++;
            pkt.free();
            return;
        }
        if (waiting >= _k && pkt.type() == TCP) {
            pkt.set_flags(pkt.flags() | ECN_CE);
            marks++;
        }
        Queue::receivePacket(pkt);
        maxWaiting = std::max(maxWaiting, waitingNow());
    }

    // Clears the counters and restarts the time average at now.
    void resetStats() {
        advance();
        _area = 0;
        _from = eventlist().now();
        drops = marks = 0;
        maxWaiting = waitingNow();
    }

    double meanWaiting() {
        advance();
        simtime_picosec span = eventlist().now() - _from;
        return span ? _area / (double)span : 0;
    }

    int waitingNow() { return _enqueued.empty() ? 0 : _enqueued.size() - 1; }

    uint64_t drops = 0, marks = 0;
    int maxWaiting = 0;

protected:
    void completeService() override {
        advance();
        Queue::completeService();
    }

private:
    // Adds the waiting count since the last change to the time integral.
    void advance() {
        simtime_picosec now = eventlist().now();
        _area += (double)waitingNow() * (double)(now - _last);
        _last = now;
    }

    mem_b _buffer;
    int _k;
    double _area = 0;
    simtime_picosec _last = 0, _from = 0;
};

// R1Src is htsim's DCTCP sender with R1's timeout floor.
class R1Src : public DCTCPSrc {
public:
    R1Src(EventList& ev, simtime_picosec minRTO)
        : DCTCPSrc(nullptr, nullptr, ev), _minRTO(minRTO) {
        _rto = minRTO; // timeout before the first RTT sample
    }

    void receivePacket(Packet& pkt) override {
        DCTCPSrc::receivePacket(pkt);
        if (_rtt == 0)
            return;
        // The base class just set the timer, if it did, to now + its own
        // floored RTO; move it to now + the RTO with R1's floor.
        simtime_picosec now = eventlist().now();
        simtime_picosec rto = std::max(_rtt + 4 * _mdev, _minRTO);
        if (_RFC2988_RTO_timeout != timeInf && _RFC2988_RTO_timeout == now + _rto)
            _RFC2988_RTO_timeout = now + rto;
        _rto = rto;
    }

    void doNextEvent() override {
        if (_rtx_timeout_pending)
            timeouts++;
        DCTCPSrc::doNextEvent();
    }

    uint64_t timeouts = 0;

private:
    simtime_picosec _minRTO;
};

// Sampler reads the bottleneck's waiting packets every period from a start
// time and keeps the smallest reading (syncsim's queue_min_pkts, whose
// sampling events syncsim also counts).
class Sampler : public EventSource {
public:
    Sampler(EventList& ev, BottleneckQueue& q, simtime_picosec period, simtime_picosec from)
        : EventSource(ev, "sampler"), _q(q), _period(period), _from(from) {}
    void doNextEvent() override {
        if (eventlist().now() >= _from)
            minWaiting = std::min(minWaiting, _q.waitingNow());
        eventlist().sourceIsPendingRel(*this, _period);
    }
    int minWaiting = 1 << 30;

private:
    BottleneckQueue& _q;
    simtime_picosec _period, _from;
};

// Snapshot records delivery and restarts the queue's statistics at the end
// of the warm-up.
class Snapshot : public EventSource {
public:
    Snapshot(EventList& ev, std::vector<TcpSink*>& sinks, BottleneckQueue& q)
        : EventSource(ev, "snapshot"), _sinks(sinks), _q(q) {}
    void doNextEvent() override {
        base.clear();
        for (TcpSink* s : _sinks)
            base.push_back(s->_cumulative_ack);
        _q.resetStats();
    }
    std::vector<uint64_t> base;

private:
    std::vector<TcpSink*>& _sinks;
    BottleneckQueue& _q;
};

} // namespace

int main(int argc, char** argv) {
    int senders = 8;
    double durationMs = 1000, warmupMs = -1;
    unsigned seed = 1;
    for (int i = 1; i < argc; i += 2) {
        if (i + 1 >= argc) {
            fprintf(stderr, "option %s needs a value\n", argv[i]);
            return 2;
        }
        if (!strcmp(argv[i], "-senders")) senders = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "-duration_ms")) durationMs = atof(argv[i + 1]);
        else if (!strcmp(argv[i], "-warmup_ms")) warmupMs = atof(argv[i + 1]);
        else if (!strcmp(argv[i], "-seed")) seed = (unsigned)atoi(argv[i + 1]);
        else {
            fprintf(stderr, "unknown option %s\n", argv[i]);
            return 2;
        }
    }
    if (warmupMs < 0)
        warmupMs = durationMs / 10;
    if (senders < 1 || durationMs <= 0 || warmupMs >= durationMs) {
        fprintf(stderr, "need -senders >= 1, -duration_ms > 0 and -warmup_ms below it\n");
        return 2;
    }

    // Must precede every object that reads the packet size.
    Packet::set_packet_size(kWireBytes);

    EventList ev;
    ev.setEndtime(timeFromMs(durationMs));

    linkspeed_bps rate = speedFromGbps(kLinkGbps);
    simtime_picosec delay = timeFromUs(kDelayUs);
    mem_b hostBuffer = (mem_b)1 << 50; // hosts never drop their own packets

    BottleneckQueue bneck(rate, kBufferBytes, kECNK, ev);
    Pipe toRecv(delay, ev);          // switch -> receiver
    Queue recvNIC(rate, hostBuffer, ev, nullptr);
    Pipe fromRecv(delay, ev);        // receiver -> switch

    TcpRtxTimerScanner scanner(timeFromUs(kRtxScanUs), ev);
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> jitter(0, kStartJitterUs);

    std::vector<TcpSink*> sinks;
    std::vector<R1Src*> srcs;
    for (int i = 0; i < senders; i++) {
        Queue* nic = new Queue(rate, hostBuffer, ev, nullptr);
        Pipe* up = new Pipe(delay, ev);     // sender -> switch
        Queue* back = new Queue(rate, kBufferBytes, ev, nullptr); // switch port to the sender
        Pipe* down = new Pipe(delay, ev);   // switch -> sender
        R1Src* src = new R1Src(ev, timeFromUs(kMinRTOUs));
        TcpSink* sink = new TcpSink();

        Route* out = new Route();
        out->push_back(nic);
        out->push_back(up);
        out->push_back(&bneck);
        out->push_back(&toRecv);
        out->push_back(sink);
        Route* in = new Route();
        in->push_back(&recvNIC);
        in->push_back(&fromRecv);
        in->push_back(back);
        in->push_back(down);
        in->push_back(src);

        scanner.registerTcp(*src);
        src->connect(*out, *in, *sink, timeFromUs(jitter(rng)));
        srcs.push_back(src);
        sinks.push_back(sink);
    }

    Snapshot snap(ev, sinks, bneck);
    ev.sourceIsPending(snap, timeFromMs(warmupMs));
    Sampler sampler(ev, bneck, timeFromUs(kSampleUs), timeFromMs(warmupMs));
    ev.sourceIsPending(sampler, 0);

    uint64_t events = 0;
    while (ev.doNextEvent())
        events++;

    double window = (durationMs - warmupMs) / 1e3;
    uint64_t segs = 0;
    uint64_t fastRetx = 0, timeouts = 0;
    for (int i = 0; i < senders; i++) {
        segs += (sinks[i]->_cumulative_ack - snap.base[i]) / kWireBytes;
        fastRetx += srcs[i]->_drops;
        timeouts += srcs[i]->timeouts;
    }
    double wire = segs * (double)kWireBytes * 8 / window / 1e9;
    double payload = segs * (double)kPayloadBytes * 8 / window / 1e9;

    printf("senders         %d\n", senders);
    printf("window_ms       %g-%g\n", warmupMs, durationMs);
    printf("goodput_gbps    %.4f  (payload, %d of %d B a segment)\n", payload, kPayloadBytes, kWireBytes);
    printf("wire_gbps       %.4f  (delivered segments at %d B)\n", wire, kWireBytes);
    printf("queue_mean_pkts %.2f\n", bneck.meanWaiting());
    printf("queue_max_pkts  %d\n", bneck.maxWaiting);
    printf("queue_min_pkts  %d  (sampled every %g us)\n", sampler.minWaiting, kSampleUs);
    printf("drops           %llu\n", (unsigned long long)bneck.drops);
    printf("ecn_marks       %llu\n", (unsigned long long)bneck.marks);
    printf("fast_retx       %llu  (whole run)\n", (unsigned long long)fastRetx);
    printf("timeouts        %llu  (whole run)\n", (unsigned long long)timeouts);
    printf("events          %llu  (whole run)\n", (unsigned long long)events);
    return 0;
}
