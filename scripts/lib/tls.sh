# Certificates for navstack-server over https, made with openssl. Sourced, not run.
#
#   make_certificates FOLDER NAME…   a private authority in FOLDER (ca.pem, ca.key; kept
#                                    once made, so that the clients' copies of ca.pem stay
#                                    good) and a new certificate it signs for the NAMEs (host
#                                    names or addresses): server.pem, server.key

make_certificates() {
  local folder=$1 name alt=()
  shift
  mkdir -p "$folder"
  chmod 0700 "$folder"
  for name in "$@"; do
    if [[ $name =~ ^[0-9.]+$ || $name == *:* ]]; then alt+=("IP:$name"); else alt+=("DNS:$name"); fi
  done
  if [ ! -f "$folder/ca.pem" ] || [ ! -f "$folder/ca.key" ]; then
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 3650 \
      -keyout "$folder/ca.key" -out "$folder/ca.pem" \
      -subj "/CN=navstack private authority ($(hostname 2>/dev/null || uname -n))" \
      -addext "basicConstraints = critical, CA:TRUE" -addext "keyUsage = critical, keyCertSign, cRLSign" 2>/dev/null
  fi
  printf '%s\n' "basicConstraints = critical, CA:FALSE" "keyUsage = critical, digitalSignature" \
    "extendedKeyUsage = serverAuth" "subjectAltName = $(IFS=,; echo "${alt[*]}")" >"$folder/server.ext"
  openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$folder/server.key" \
    -out "$folder/server.csr" -subj "/CN=$1" 2>/dev/null
  openssl x509 -req -in "$folder/server.csr" -CA "$folder/ca.pem" -CAkey "$folder/ca.key" -CAcreateserial \
    -days 397 -extfile "$folder/server.ext" -out "$folder/server.pem" 2>/dev/null
  rm -f "$folder/server.csr"
}
