#pragma once
// A fixture for the dependency-rule check: the pure room opens no socket and sees no Beast stream.
#include <boost/asio/ip/tcp.hpp>
