#include "support/test_certificate.hpp"

#include <cstdio>
#include <memory>
#include <stdexcept>

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

namespace petstore::tests {
namespace {

template <auto Free>
struct Deleter {
  template <class T>
  void operator()(T* pointer) const {
    Free(pointer);
  }
};

using Key = std::unique_ptr<EVP_PKEY, Deleter<EVP_PKEY_free>>;
using Certificate = std::unique_ptr<X509, Deleter<X509_free>>;
using File = std::unique_ptr<std::FILE, Deleter<std::fclose>>;

void require(bool ok, const char* what) {
  if (!ok) {
    throw std::runtime_error(std::string("making a test certificate failed at ") + what);
  }
}

}  // namespace

void write_self_signed_certificate(const std::string& common_name,
                                   const std::filesystem::path& certificate,
                                   const std::filesystem::path& private_key) {
  const Key key(EVP_EC_gen("P-256"));
  require(key != nullptr, "EVP_EC_gen");
  const Certificate x509(X509_new());
  require(x509 != nullptr, "X509_new");
  require(X509_set_version(x509.get(), 2) == 1, "X509_set_version");
  require(ASN1_INTEGER_set(X509_get_serialNumber(x509.get()), 1) == 1, "serial");
  X509_gmtime_adj(X509_getm_notBefore(x509.get()), -60);
  X509_gmtime_adj(X509_getm_notAfter(x509.get()), 24L * 60 * 60);
  require(X509_set_pubkey(x509.get(), key.get()) == 1, "X509_set_pubkey");
  X509_NAME* name = X509_get_subject_name(x509.get());
  require(X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                                     reinterpret_cast<const unsigned char*>(common_name.c_str()),
                                     -1, -1, 0) == 1,
          "CN");
  require(X509_set_issuer_name(x509.get(), name) == 1, "issuer");
  require(X509_sign(x509.get(), key.get(), EVP_sha256()) > 0, "X509_sign");
  const File certificate_file(std::fopen(certificate.c_str(), "w"));
  require(certificate_file != nullptr, "opening the certificate file");
  require(PEM_write_X509(certificate_file.get(), x509.get()) == 1, "PEM_write_X509");
  const File key_file(std::fopen(private_key.c_str(), "w"));
  require(key_file != nullptr, "opening the key file");
  require(
      PEM_write_PrivateKey(key_file.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr) == 1,
      "PEM_write_PrivateKey");
}

}  // namespace petstore::tests
