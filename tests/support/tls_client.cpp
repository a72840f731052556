#include "support/tls_client.hpp"

#include <array>
#include <sys/socket.h>
#include <sys/time.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/write.hpp>

namespace petstore::tests {
namespace {

namespace asio = boost::asio;

std::string common_name_of(SSL* ssl) {
  X509* certificate = SSL_get1_peer_certificate(ssl);
  if (certificate == nullptr) {
    return {};
  }
  std::array<char, 256> name{};
  X509_NAME_get_text_by_NID(X509_get_subject_name(certificate), NID_commonName, name.data(),
                            static_cast<int>(name.size()));
  X509_free(certificate);
  return name.data();
}

// retrying: runs `call` (which sets `error`) again while it fails with EINTR. A blocking call on
// a socket with SO_RCVTIMEO is not restarted when the thread is interrupted but fails with EINTR
// (signal(7)); io_uring's task work interrupts it that way in the io_uring build.
template <class Call>
void retrying(Call call, boost::system::error_code& error) {
  do {
    error.clear();
    call();
  } while (error == asio::error::interrupted);
}

}  // namespace

TlsExchange tls_exchange(const std::string& address, const std::string& request, int min_version,
                         int max_version, std::string_view alpn) {
  const auto colon = address.rfind(':');
  asio::io_context io;
  asio::ssl::context context(asio::ssl::context::tls_client);
  SSL_CTX_set_security_level(context.native_handle(), 0);  // let old versions be offered at all
  SSL_CTX_set_min_proto_version(context.native_handle(), min_version);
  SSL_CTX_set_max_proto_version(context.native_handle(), max_version);
  context.set_verify_mode(asio::ssl::verify_none);
  if (!alpn.empty()) {
    // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): OpenSSL takes bytes
    SSL_CTX_set_alpn_protos(context.native_handle(),
                            reinterpret_cast<const unsigned char*>(alpn.data()),
                            static_cast<unsigned>(alpn.size()));
  }
  asio::ssl::stream<asio::ip::tcp::socket> stream(io, context);
  const asio::ip::tcp::endpoint endpoint(
      asio::ip::make_address(address.substr(0, colon)),
      static_cast<unsigned short>(std::stoi(address.substr(colon + 1))));
  stream.lowest_layer().connect(endpoint);
  const timeval ten_seconds{10, 0};
  ::setsockopt(stream.lowest_layer().native_handle(), SOL_SOCKET, SO_RCVTIMEO, &ten_seconds,
               sizeof ten_seconds);
  TlsExchange exchange;
  boost::system::error_code error;
  retrying([&] { stream.handshake(asio::ssl::stream_base::client, error); }, error);
  if (error) {
    return exchange;
  }
  exchange.handshake_succeeded = true;
  exchange.peer_common_name = common_name_of(stream.native_handle());
  const unsigned char* chosen = nullptr;
  unsigned chosen_size = 0;
  SSL_get0_alpn_selected(stream.native_handle(), &chosen, &chosen_size);
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): OpenSSL gives bytes
  exchange.protocol.assign(reinterpret_cast<const char*>(chosen), chosen_size);
  std::size_t sent = 0;
  retrying([&] { sent += asio::write(stream, asio::buffer(request) + sent, error); }, error);
  std::string received;
  std::array<char, 4096> chunk{};
  while (!error) {
    retrying([&] { received.append(chunk.data(), stream.read_some(asio::buffer(chunk), error)); },
             error);
  }
  exchange.received = std::move(received);
  return exchange;
}

}  // namespace petstore::tests
