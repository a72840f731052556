#pragma once
// A blocking TLS client for tests: one handshake with chosen protocol versions, one request, the
// response read until the server closes. It does not verify the certificate (the tests make it
// themselves) but reports its common name.

#include <string>
#include <string_view>

#include <openssl/tls1.h>

namespace petstore::tests {

struct TlsExchange {
  bool handshake_succeeded = false;
  std::string peer_common_name;
  std::string protocol;  // what ALPN chose ("h2", "http/1.1"); empty when it chose nothing
  std::string received;  // every byte the server sent after the handshake, until it closed
};

// tls_exchange: connects to `address` ("127.0.0.1:PORT") offering TLS versions
// `min_version`..`max_version` (TLS1_2_VERSION, ...), then sends `request` if the handshake
// succeeded. `alpn`: the protocols offered by ALPN, in its wire form ("\x02h2\x08http/1.1"); none
// when empty. Every step gives up after ten seconds.
[[nodiscard]] TlsExchange tls_exchange(const std::string& address, const std::string& request,
                                       int min_version = TLS1_2_VERSION,
                                       int max_version = TLS1_3_VERSION,
                                       std::string_view alpn = {});

}  // namespace petstore::tests
