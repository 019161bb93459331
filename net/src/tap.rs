//! [`TappedTransport`]: a client transport that shows every packet to a tap before it is
//! encrypted (outgoing) or after it is decrypted (incoming), so a test can prove what a client
//! sends and receives, byte for byte: that a client-local id is never written into a packet,
//! for one. It is netcode over a UDP socket, as [`Client::connect`](crate::Client::connect)
//! uses, with the tap added; nothing else differs.
//!
//! Invariants: the tap sees each renet packet exactly once, in the order it is sent or
//! processed; the connection's own netcode handshake and keep-alive packets, which carry no
//! messages, are not shown.

use crate::error::NetError;
use crate::transport::{self, ClientAuth, ClientTransport};
use renet::RenetClient;
use renetcode::NetcodeClient;
use std::io;
use std::net::{SocketAddr, UdpSocket};
use std::time::Duration;

/// Which way a tapped packet went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PacketDirection {
    /// Client to server.
    Sent,
    /// Server to client.
    Received,
}

/// What a [`TappedTransport`] calls with every packet.
pub type PacketTap = Box<dyn FnMut(PacketDirection, &[u8])>;

/// A netcode client transport with a tap on every packet.
pub struct TappedTransport {
    netcode: NetcodeClient,
    socket: UdpSocket,
    buffer: Box<[u8; 1400]>,
    tap: PacketTap,
}

impl TappedTransport {
    /// Connects as `auth` says from an ephemeral loopback port, calling `tap` with every packet.
    pub fn connect(auth: ClientAuth, tap: PacketTap) -> Result<TappedTransport, NetError> {
        let server = auth.server().ok_or_else(|| NetError::BadCredential {
            what: "token",
            why: "it names no server address".to_owned(),
        })?;
        let bind: SocketAddr = if server.is_ipv4() {
            (std::net::Ipv4Addr::LOCALHOST, 0).into()
        } else {
            (std::net::Ipv6Addr::LOCALHOST, 0).into()
        };
        let socket = UdpSocket::bind(bind)?;
        socket.set_nonblocking(true)?;
        let netcode = NetcodeClient::new(transport::unix_now(), auth.netcode())?;
        Ok(TappedTransport { netcode, socket, buffer: Box::new([0; 1400]), tap })
    }
}

impl ClientTransport for TappedTransport {
    fn receive(&mut self, dt: Duration, client: &mut RenetClient) -> Result<(), NetError> {
        if self.netcode.disconnect_reason().is_some() {
            client.disconnect_due_to_transport();
            return Ok(());
        }
        if client.disconnect_reason().is_some() {
            if let Ok((addr, packet)) = self.netcode.disconnect() {
                self.socket.send_to(packet, addr)?;
            }
            return Ok(());
        }
        if self.netcode.is_connected() {
            client.set_connected();
        } else if self.netcode.is_connecting() {
            client.set_connecting();
        }
        loop {
            let len = match self.socket.recv_from(&mut self.buffer[..]) {
                Ok((len, addr)) if addr == self.netcode.server_addr() => len,
                Ok(_) => continue,
                Err(e) if matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted) => break,
                Err(e) => return Err(e.into()),
            };
            if let Some(payload) = self.netcode.process_packet(&mut self.buffer[..len]) {
                (self.tap)(PacketDirection::Received, payload);
                client.process_packet(payload);
            }
        }
        if let Some((packet, addr)) = self.netcode.update(dt) {
            self.socket.send_to(packet, addr)?;
        }
        Ok(())
    }

    fn send(&mut self, client: &mut RenetClient) -> Result<(), NetError> {
        if self.netcode.disconnect_reason().is_some() {
            return Ok(());
        }
        for packet in client.get_packets_to_send() {
            (self.tap)(PacketDirection::Sent, &packet);
            let (addr, payload) = self.netcode.generate_payload_packet(&packet)?;
            self.socket.send_to(payload, addr)?;
        }
        Ok(())
    }

    fn disconnect(&mut self) {
        if let Ok((addr, packet)) = self.netcode.disconnect() {
            let _ = self.socket.send_to(packet, addr);
        }
    }

    fn disconnect_reason(&self) -> Option<String> {
        self.netcode.disconnect_reason().map(|r| r.to_string())
    }
}
