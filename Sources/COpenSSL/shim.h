// OpenSSL 3 (libssl, libcrypto) for the sync client's TLS, and static inline wrappers for
// what Swift cannot call: the macros over SSL_ctrl and BIO_ctrl, and the walks over a
// certificate's names that would take many small calls from Swift.
#ifndef NAVSTACK_COPENSSL_SHIM_H
#define NAVSTACK_COPENSSL_SHIM_H

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

/// Starts libssl without reading openssl.cnf: where that file lives differs between
/// distributions (and a static executable names Debian's), so TLS behaves the same on
/// every machine. 1 on success.
static inline int ns_tls_init(void) {
    return OPENSSL_init_ssl(OPENSSL_INIT_NO_LOAD_CONFIG, NULL);
}

/// Starts libcrypto without reading openssl.cnf, for sealing (as `ns_tls_init` does for
/// TLS). 1 on success.
static inline int ns_crypto_init(void) {
    return OPENSSL_init_crypto(OPENSSL_INIT_NO_LOAD_CONFIG, NULL);
}

/// Called by OpenSSL for each certificate of the server's chain as it is verified (`ok` is
/// 0 when it failed a check). Keeps the first certificate that failed on its connection
/// (its app data), so that the refusal can name what it was for and when it expired:
/// OpenSSL keeps the server's certificate on the connection only once it has passed.
static inline int ns_tls_verify_callback(int ok, X509_STORE_CTX *store) {
    if (ok) return ok;
    SSL *ssl = X509_STORE_CTX_get_ex_data(store, SSL_get_ex_data_X509_STORE_CTX_idx());
    X509 *certificate = X509_STORE_CTX_get_current_cert(store);
    if (ssl != NULL && certificate != NULL && SSL_get_app_data(ssl) == NULL && X509_up_ref(certificate) == 1) {
        SSL_set_app_data(ssl, certificate);
    }
    return ok;
}

/// A client context: TLS 1.2 or later, security level 2 (keys of at least 112 bits'
/// strength), the server's certificate verified, no renegotiation. NULL on failure.
static inline SSL_CTX *ns_tls_client_context(void) {
    SSL_CTX *context = SSL_CTX_new(TLS_client_method());
    if (context == NULL) return NULL;
    if (SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION) != 1) {
        SSL_CTX_free(context);
        return NULL;
    }
    SSL_CTX_set_security_level(context, 2);
    SSL_CTX_set_options(context, SSL_OP_NO_RENEGOTIATION | SSL_OP_NO_COMPRESSION);
    SSL_CTX_set_verify(context, SSL_VERIFY_PEER, ns_tls_verify_callback);
    return context;
}

/// A client connection to `host` over two memory buffers, which the caller's socket fills
/// and empties. The certificate must name `host`: as an IP address when `is_address`,
/// else as a DNS name (no partial wildcards), which also goes in the SNI extension.
/// NULL on failure.
static inline SSL *ns_tls_client(SSL_CTX *context, const char *host, int is_address) {
    SSL *ssl = SSL_new(context);
    if (ssl == NULL) return NULL;
    BIO *input = BIO_new(BIO_s_mem());
    BIO *output = BIO_new(BIO_s_mem());
    if (input == NULL || output == NULL) {
        BIO_free(input);
        BIO_free(output);
        SSL_free(ssl);
        return NULL;
    }
    // An empty input buffer means "wait for more", not the end of the connection.
    BIO_set_mem_eof_return(input, -1);
    SSL_set_bio(ssl, input, output);
    SSL_set_connect_state(ssl);
    X509_VERIFY_PARAM *param = SSL_get0_param(ssl);
    X509_VERIFY_PARAM_set_hostflags(param, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
    int named = is_address ? X509_VERIFY_PARAM_set1_ip_asc(param, host)
                           : (SSL_set_tlsext_host_name(ssl, host) == 1 && SSL_set1_host(ssl, host) == 1);
    if (!named) {
        SSL_free(ssl);
        return NULL;
    }
    return ssl;
}

/// Frees a connection made by `ns_tls_client`, with the certificate it kept, if any.
static inline void ns_tls_free(SSL *ssl) {
    X509_free(SSL_get_app_data(ssl));
    SSL_free(ssl);
}

/// The server's certificate that failed a check, else the server's certificate once it
/// has passed them; NULL before the server has sent one.
static inline X509 *ns_tls_server_certificate(const SSL *ssl) {
    X509 *refused = SSL_get_app_data(ssl);
    return refused != NULL ? refused : SSL_get0_peer_certificate(ssl);
}

/// Hands OpenSSL `count` bytes read from the socket.
static inline int ns_tls_feed(SSL *ssl, const void *bytes, int count) {
    return BIO_write(SSL_get_rbio(ssl), bytes, count);
}

/// The socket has reached its end: what OpenSSL reads next is the end of input.
static inline void ns_tls_end_of_input(SSL *ssl) {
    BIO_set_mem_eof_return(SSL_get_rbio(ssl), 0);
}

/// How many bytes OpenSSL has written for the socket to send.
static inline size_t ns_tls_pending_output(SSL *ssl) {
    return BIO_ctrl_pending(SSL_get_wbio(ssl));
}

/// Takes up to `count` of the bytes OpenSSL has written for the socket to send.
static inline int ns_tls_take_output(SSL *ssl, void *bytes, int count) {
    return BIO_read(SSL_get_wbio(ssl), bytes, count);
}

/// Whether the last error on this thread's queue is an end of input in the middle of a
/// record or without the peer's close_notify (a connection cut short).
static inline int ns_tls_error_is_unexpected_eof(unsigned long error) {
    return ERR_GET_LIB(error) == ERR_LIB_SSL && ERR_GET_REASON(error) == SSL_R_UNEXPECTED_EOF_WHILE_READING;
}

/// Writes the DNS names and IP addresses the server's certificate
/// (`ns_tls_server_certificate`) is for into `text`, separated by ", " (its subject
/// alternative names; else its common name). 0 when there is none or it names nothing.
static inline size_t ns_tls_peer_names(const SSL *ssl, char *text, size_t size) {
    if (size == 0) return 0;
    text[0] = 0;
    X509 *certificate = ns_tls_server_certificate(ssl);
    if (certificate == NULL) return 0;
    size_t used = 0;
    GENERAL_NAMES *names = X509_get_ext_d2i(certificate, NID_subject_alt_name, NULL, NULL);
    if (names != NULL) {
        for (int index = 0; index < sk_GENERAL_NAME_num(names); index++) {
            const GENERAL_NAME *name = sk_GENERAL_NAME_value(names, index);
            char address[INET6_ADDRSTRLEN] = "";
            const char *word = NULL;
            int length = 0;
            if (name->type == GEN_DNS) {
                word = (const char *)ASN1_STRING_get0_data(name->d.dNSName);
                length = ASN1_STRING_length(name->d.dNSName);
            } else if (name->type == GEN_IPADD) {
                int bytes = ASN1_STRING_length(name->d.iPAddress);
                const unsigned char *data = ASN1_STRING_get0_data(name->d.iPAddress);
                if ((bytes == 4 || bytes == 16) && inet_ntop(bytes == 4 ? AF_INET : AF_INET6, data, address, sizeof address)) {
                    word = address;
                    length = (int)strlen(address);
                }
            }
            if (word == NULL || length <= 0) continue;
            int written = snprintf(text + used, size - used, "%s%.*s", used ? ", " : "", length, word);
            if (written < 0 || (size_t)written >= size - used) break;
            used += (size_t)written;
        }
        GENERAL_NAMES_free(names);
    }
    if (used == 0) {
        int written = X509_NAME_get_text_by_NID(X509_get_subject_name(certificate), NID_commonName, text, (int)size);
        used = written > 0 ? (size_t)written : 0;
    }
    return used;
}

/// The end (`which` 1) or start (0) of the server's certificate's validity
/// (`ns_tls_server_certificate`), in UTC.
/// 0 when there is no certificate.
static inline int ns_tls_peer_validity(const SSL *ssl, int which, struct tm *time) {
    X509 *certificate = ns_tls_server_certificate(ssl);
    if (certificate == NULL) return 0;
    return ASN1_TIME_to_tm(which ? X509_get0_notAfter(certificate) : X509_get0_notBefore(certificate), time);
}

#endif
