// dctcp-models.h: the switch queue and the TCP variants that r1-dctcp.cc
// and filerun.cc share (both built by g++ against the installed ns-3.37;
// see run.sh and h2h.sh).
//
//   StepMarkQueue  a drop-tail device queue that marks ECT packets CE when
//                  an arrival finds at least k packets waiting (DCTCP,
//                  Alizadeh et al. 2010, Sec. 3.1), as syncsim's switch
//                  ports do
//   TcpDctcpBytes  ns-3's DCTCP with syncsim's congestion-avoidance
//                  arithmetic (--ca=bytes)
//   TcpPrrLinux    Linux's PRR in CWR (--recovery=prr-linux)

#ifndef SYNCSIM_NS3_DCTCP_MODELS_H
#define SYNCSIM_NS3_DCTCP_MODELS_H

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/ppp-header.h"
#include "ns3/traffic-control-module.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <vector>

using namespace ns3;

// StepMarkQueue is a device queue of packets that carry their PPP header.
class StepMarkQueue : public Queue<Packet>
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("StepMarkQueue")
                                .SetParent<Queue<Packet>>()
                                .AddConstructor<StepMarkQueue>();
        return tid;
    }

    // k: the marking threshold in packets (0: never mark).
    uint32_t k = 0;
    // Statistics from Open on.
    bool open = false;
    Time from;
    Time last;
    double area = 0; // packet-seconds
    uint32_t maxPkts = 0;
    uint64_t marks = 0;
    uint64_t drops = 0;

    bool Enqueue(Ptr<Packet> p) override
    {
        Account();
        if (k > 0 && GetNPackets() >= k)
        {
            Mark(p);
        }
        bool ok = DoEnqueue(GetContainer().end(), p);
        if (!ok && open)
        {
            drops++;
        }
        if (open && GetNPackets() > maxPkts)
        {
            maxPkts = GetNPackets();
        }
        return ok;
    }

    Ptr<Packet> Dequeue() override
    {
        Account();
        return DoDequeue(GetContainer().begin());
    }

    Ptr<Packet> Remove() override
    {
        Account();
        return DoRemove(GetContainer().begin());
    }

    Ptr<const Packet> Peek() const override
    {
        return DoPeek(GetContainer().begin());
    }

    // Open starts the statistics window.
    void Open()
    {
        open = true;
        from = last = Simulator::Now();
        area = 0;
        maxPkts = GetNPackets();
        marks = drops = 0;
    }

    double Mean(Time end)
    {
        Account();
        return area / (end - from).GetSeconds();
    }

  protected:
    // Account integrates the packet count up to now.
    void Account()
    {
        Time now = Simulator::Now();
        if (open)
        {
            area += GetNPackets() * (now - last).GetSeconds();
            last = now;
        }
    }

  private:
    void Mark(Ptr<Packet> p)
    {
        PppHeader ppp;
        p->RemoveHeader(ppp);
        Ipv4Header ip;
        p->RemoveHeader(ip);
        Ipv4Header::EcnType e = ip.GetEcn();
        if (e == Ipv4Header::ECN_ECT0 || e == Ipv4Header::ECN_ECT1)
        {
            ip.SetEcn(Ipv4Header::ECN_CE);
            if (open)
            {
                marks++;
            }
        }
        p->AddHeader(ip);
        p->AddHeader(ppp);
    }
};

NS_OBJECT_ENSURE_REGISTERED(StepMarkQueue);

// TcpDctcpBytes is ns-3's DCTCP with syncsim's congestion-avoidance
// arithmetic (transport.CongestionAvoidance, RFC 5681 Sec. 3.1 byte
// counting): acknowledged bytes accumulate and the window grows by one
// segment each time they reach the window, and the count restarts at a
// window cut (GetSsThresh runs at every cut). ns-3's own TcpLinuxReno
// grows after floor(cwnd / MSS) acknowledged segments and keeps its count
// across cuts. Selected with --ca=bytes, to tell the two arithmetics'
// effect from the reduction's.
class TcpDctcpBytes : public TcpDctcp
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("TcpDctcpBytes")
                                .SetParent<TcpDctcp>()
                                .AddConstructor<TcpDctcpBytes>();
        return tid;
    }

    TcpDctcpBytes() = default;

    TcpDctcpBytes(const TcpDctcpBytes& o)
        : TcpDctcp(o),
          m_acc(o.m_acc)
    {
    }

    std::string GetName() const override
    {
        return "TcpDctcpBytes";
    }

    uint32_t GetSsThresh(Ptr<const TcpSocketState> tcb, uint32_t bytesInFlight) override
    {
        m_acc = 0;
        return TcpDctcp::GetSsThresh(tcb, bytesInFlight);
    }

    Ptr<TcpCongestionOps> Fork() override
    {
        return CopyObject<TcpDctcpBytes>(this);
    }

  protected:
    void CongestionAvoidance(Ptr<TcpSocketState> tcb, uint32_t segmentsAcked) override
    {
        m_acc += static_cast<uint64_t>(segmentsAcked) * tcb->m_segmentSize;
        if (m_acc >= tcb->m_cWnd)
        {
            m_acc -= tcb->m_cWnd;
            tcb->m_cWnd += tcb->m_segmentSize;
            if (m_acc >= tcb->m_cWnd)
            {
                m_acc = 0;
            }
        }
    }

  private:
    uint64_t m_acc = 0;
};

NS_OBJECT_ENSURE_REGISTERED(TcpDctcpBytes);

// TcpPrrLinux is proportional rate reduction as Linux runs it in
// TCP_CA_CWR (net/ipv4/tcp_input.c, tcp_init_cwnd_reduction and
// tcp_cwnd_reduction; RFC 6937 with the slow-start reduction bound), and as
// syncsim's dctcp_cwr=prr models it (transport.PRRWindow). ns-3.37's
// TcpPrrRecovery differs in three ways in CWR: EnterCwr runs DoRecovery with
// the entry ACK's bytes and ProcessAck runs it again with the same bytes, so
// they count twice; the reduction is scaled by the unacknowledged bytes
// after the entry ACK instead of the window before the cut; and below
// ssthresh it sends only what was delivered, without RFC 6937's extra
// segment. Here the entry ACK counts once, the scale is the window before
// the cut, and the bound is RFC 6937's. Selected with --recovery=prr-linux.
// Outside CWR (fast recovery after a loss) it behaves as in Linux too.
class TcpPrrLinux : public TcpClassicRecovery
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("TcpPrrLinux")
                                .SetParent<TcpClassicRecovery>()
                                .AddConstructor<TcpPrrLinux>();
        return tid;
    }

    TcpPrrLinux() = default;

    TcpPrrLinux(const TcpPrrLinux& o)
        : TcpClassicRecovery(o),
          m_prior(o.m_prior),
          m_delivered(o.m_delivered),
          m_out(o.m_out)
    {
    }

    std::string GetName() const override
    {
        return "TcpPrrLinux";
    }

    void EnterRecovery(Ptr<TcpSocketState> tcb,
                       uint32_t dupAckCount,
                       uint32_t unAckDataCount,
                       uint32_t deliveredBytes) override
    {
        m_prior = tcb->m_cWnd; // Linux's prior_cwnd
        m_delivered = 0;
        m_out = 0;
        if (tcb->m_congState != TcpSocketState::CA_CWR)
        {
            DoRecovery(tcb, deliveredBytes);
        }
        // In CWR, ProcessAck calls DoRecovery for this ACK next.
    }

    void DoRecovery(Ptr<TcpSocketState> tcb, uint32_t deliveredBytes) override
    {
        m_delivered += deliveredBytes;
        int64_t inflight = tcb->m_bytesInFlight;
        int64_t ssthresh = tcb->m_ssThresh;
        int64_t prior = std::max<int64_t>(m_prior, 1);
        int64_t sndcnt;
        if (inflight > ssthresh)
        {
            sndcnt = (m_delivered * ssthresh + prior - 1) / prior - m_out;
        }
        else
        {
            sndcnt = std::min<int64_t>(ssthresh - inflight,
                                       std::max<int64_t>(m_delivered - m_out, deliveredBytes) +
                                           tcb->m_segmentSize);
        }
        if (m_out == 0)
        {
            sndcnt = std::max<int64_t>(sndcnt, tcb->m_segmentSize);
        }
        sndcnt = std::max<int64_t>(sndcnt, 0);
        tcb->m_cWnd = static_cast<uint32_t>(inflight + sndcnt);
        tcb->m_cWndInfl = tcb->m_cWnd;
    }

    void ExitRecovery(Ptr<TcpSocketState> tcb) override
    {
        tcb->m_cWndInfl = tcb->m_cWnd;
    }

    void UpdateBytesSent(uint32_t bytesSent) override
    {
        m_out += bytesSent;
    }

    Ptr<TcpRecoveryOps> Fork() override
    {
        return CopyObject<TcpPrrLinux>(this);
    }

  private:
    int64_t m_prior = 1;
    int64_t m_delivered = 0;
    int64_t m_out = 0;
};

NS_OBJECT_ENSURE_REGISTERED(TcpPrrLinux);

#endif // SYNCSIM_NS3_DCTCP_MODELS_H
