#include "adapters/http/server/tls_context.hpp"

#include <openssl/ssl.h>

namespace petstore::adapters::http {
namespace {

namespace ssl = boost::asio::ssl;

// TLS 1.2 suites with forward secrecy and AEAD only; TLS 1.3 suites are OpenSSL's defaults.
constexpr const char* tls12_ciphers =
    "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:"
    "ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:"
    "ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305";

domain::Result<std::shared_ptr<ssl::context>> build(const TlsFiles& files) {
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

domain::Result<std::unique_ptr<TlsContext>> TlsContext::load(const TlsFiles& files) {
  auto context = build(files);
  if (!context) {
    return context.error();
  }
  return std::unique_ptr<TlsContext>(new TlsContext(files, std::move(*context)));
}

std::shared_ptr<ssl::context> TlsContext::current() const {
  const std::lock_guard lock(mutex_);
  return context_;
}

domain::Result<void> TlsContext::reload() {
  auto context = build(files_);
  if (!context) {
    return context.error();
  }
  const std::lock_guard lock(mutex_);
  context_ = std::move(*context);
  return {};
}

}  // namespace petstore::adapters::http
