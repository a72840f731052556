#include "adapters/http/server/tls_context.hpp"

#include <string_view>

#include <openssl/ssl.h>

namespace petstore::adapters::http {
namespace {

namespace ssl = boost::asio::ssl;

// TLS 1.2 suites with forward secrecy and AEAD only; TLS 1.3 suites are OpenSSL's defaults.
constexpr const char* tls12_ciphers =
    "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:"
    "ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:"
    "ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305";

// The protocols this server speaks, in its order of preference, in ALPN's wire form.
constexpr std::string_view h2_and_http11 = "\x02h2\x08http/1.1";
constexpr std::string_view http11_only = "\x08http/1.1";

// select_protocol: the first of `arg`'s protocols the client's ALPN offer holds (RFC 7301 section
// 3.2); none, so HTTP/1.1, when it offers none of them.
int select_protocol(SSL* /*ssl*/, const unsigned char** out, unsigned char* out_size,
                    const unsigned char* offered, unsigned offered_size, void* arg) {
  const auto* ours = static_cast<const std::string_view*>(arg);
  unsigned char* chosen = nullptr;
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): OpenSSL takes bytes
  const auto* ours_bytes = reinterpret_cast<const unsigned char*>(ours->data());
  if (SSL_select_next_proto(&chosen, out_size, ours_bytes, static_cast<unsigned>(ours->size()),
                            offered, offered_size) != OPENSSL_NPN_NEGOTIATED) {
    return SSL_TLSEXT_ERR_NOACK;
  }
  *out = chosen;
  return SSL_TLSEXT_ERR_OK;
}

domain::Result<std::shared_ptr<ssl::context>> build(const TlsFiles& files, bool http2) {
  auto context = std::make_shared<ssl::context>(ssl::context::tls_server);
  boost::system::error_code error;
  context->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 |
                           ssl::context::no_sslv3 | ssl::context::no_tlsv1 |
                           ssl::context::no_tlsv1_1 | ssl::context::single_dh_use |
                           SSL_OP_NO_RENEGOTIATION | SSL_OP_CIPHER_SERVER_PREFERENCE,
                       error);
  SSL_CTX_set_min_proto_version(context->native_handle(), TLS1_2_VERSION);
  if (SSL_CTX_set_cipher_list(context->native_handle(), tls12_ciphers) != 1) {
    return domain::invalid_argument("tls", "the TLS cipher list is not supported by this OpenSSL");
  }
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-const-cast): OpenSSL's argument is a void*
  void* protocols = const_cast<std::string_view*>(http2 ? &h2_and_http11 : &http11_only);
  SSL_CTX_set_alpn_select_cb(context->native_handle(), &select_protocol, protocols);
  context->use_certificate_chain_file(files.certificate_chain.string(), error);
  if (error) {
    return domain::invalid_argument("tls-cert", "cannot use TLS certificate " +
                                                    files.certificate_chain.string() +
                                                    ": not a readable PEM certificate chain");
  }
  context->use_private_key_file(files.private_key.string(), ssl::context::pem, error);
  if (error) {
    return domain::invalid_argument("tls-key", "cannot use TLS key " + files.private_key.string() +
                                                   ": not a readable PEM private key");
  }
  if (SSL_CTX_check_private_key(context->native_handle()) != 1) {
    return domain::invalid_argument(
        "tls-key", "the TLS key " + files.private_key.string() + " does not match the certificate");
  }
  return context;
}

}  // namespace

domain::Result<std::unique_ptr<TlsContext>> TlsContext::load(const TlsFiles& files, bool http2) {
  auto context = build(files, http2);
  if (!context) {
    return context.error();
  }
  return std::unique_ptr<TlsContext>(new TlsContext(files, http2, std::move(*context)));
}

std::shared_ptr<ssl::context> TlsContext::current() const {
  const std::lock_guard lock(mutex_);
  return context_;
}

domain::Result<void> TlsContext::reload() {
  auto context = build(files_, http2_);
  if (!context) {
    return context.error();
  }
  const std::lock_guard lock(mutex_);
  context_ = std::move(*context);
  return {};
}

bool chose_h2(const SSL* connection) {
  const unsigned char* protocol = nullptr;
  unsigned size = 0;
  SSL_get0_alpn_selected(connection, &protocol, &size);
  return std::string_view(reinterpret_cast<const char*>(protocol), size) == "h2";  // NOLINT
}

}  // namespace petstore::adapters::http
