import type { Catalogue } from '../messages';

// The checkout's Vietnamese catalogue: en.ts, sentence by sentence.
export const vi: Catalogue = {
  'page.title': 'Thanh toán cho {app}',
  'page.noscriptRefresh': 'Trang này tự động làm mới sau mỗi 15 giây.',
  'merchant.label': 'Thanh toán cho',
  'invoice.number': 'Hóa đơn {id}',
  'invoice.description': 'Nội dung',

  'pick.heading': 'Chọn phương thức thanh toán',
  'pick.intro': 'Chọn loại tiền và mạng mà ví của bạn sẽ dùng để chuyển.',
  'pick.option': '{asset} trên mạng {network}',
  'pick.amount': '{amount} {asset}',
  'pick.change': 'Chọn phương thức thanh toán khác',

  'amount.heading': 'Số tiền cần gửi',
  'amount.token': 'Gửi chính xác',
  'amount.fiat': 'Tổng hóa đơn',
  'amount.rate': 'Tỷ giá',
  'amount.rateValue': '1 {asset} = {rate} {currency}',
  'amount.paid': 'Đã nhận được',

  'network.heading': 'Mạng',
  'network.value': '{network} (mã chuỗi {chainId})',
  'network.token': 'Hợp đồng token',
  'network.coin': 'Coin gốc của mạng, không có hợp đồng token',
  'network.warning': 'Chỉ gửi {asset} qua mạng {network} ({standard}) đến địa chỉ này.',
  'network.warningPlain': 'Chỉ gửi {asset} qua mạng {network} đến địa chỉ này.',

  'address.heading': 'Địa chỉ',
  'address.open': 'Mở trong ví',
  'address.scanOrCopy': 'Quét mã bằng ví của bạn, hoặc sao chép địa chỉ và số tiền.',
  'address.qr':
    'Mã QR yêu cầu thanh toán: {amount} {asset} qua mạng {network} đến địa chỉ {address}',
  'copy.address': 'Sao chép địa chỉ',
  'copy.amount': 'Sao chép số tiền',
  'copy.done': 'Đã sao chép',

  'expiry.label': 'Hạn thanh toán',
  'expiry.left': 'Thời gian còn lại',
  'expiry.minutes': 'Còn {minutes} phút để thanh toán',
  'expiry.minute': 'Còn 1 phút để thanh toán',
  'expiry.seconds': 'Còn {seconds} giây để thanh toán',
  'expiry.over': 'Đã hết thời gian thanh toán',

  'waiting.heading': 'Thanh toán {amount} {asset}',
  'waiting.status': 'Đang chờ bạn thanh toán.',

  'partial.heading': 'Còn thiếu: {due} {asset}',
  'partial.status':
    'Chúng tôi đã nhận được {paid} {asset}. Vui lòng gửi {due} {asset} còn lại đến cùng địa chỉ này.',

  'seen.heading': 'Đã nhận thanh toán, đang xác nhận',
  'seen.status': 'Đã ghi nhận {paid} {asset}, xác nhận: {confirmations}/{required}.',
  'seen.next': 'Bạn có thể đóng trang này: giao dịch sẽ tự động hoàn tất.',

  'paid.heading': 'Thanh toán thành công',
  'paid.status': 'Cảm ơn bạn. {app} đã nhận được khoản thanh toán của bạn.',
  'paid.redirect': 'Bạn sẽ được chuyển về {app} sau vài giây.',
  'paid.return': 'Quay lại {app}',
  'paid.close': 'Bạn có thể đóng trang này.',
  'paid.late': 'Khoản thanh toán của bạn đến sau thời hạn, nhưng vẫn kịp để được ghi nhận.',
  'paid.over':
    'Bạn đã gửi dư {amount} {asset} so với số tiền cần thanh toán. {app} sẽ hoàn lại phần chênh lệch.',

  'expired.heading': 'Hóa đơn này đã hết hạn',
  'expired.nothing': 'Không nhận được khoản thanh toán nào trong thời hạn.',
  'expired.again':
    'Vui lòng không gửi bất kỳ khoản nào đến địa chỉ của hóa đơn này. Để thanh toán, hãy quay lại {app} và bắt đầu lại từ đầu.',
  'expired.partialHeading': 'Hóa đơn đã hết hạn, mới thanh toán một phần',
  'expired.partial':
    'Trước khi hết hạn, chúng tôi đã nhận được {paid} {asset} trên tổng số {amount} {asset}. Số tiền này chưa đủ để hoàn tất đơn hàng.',
  'expired.partialNext':
    'Vui lòng không gửi thêm tiền đến địa chỉ của hóa đơn này. {app} sẽ hoàn lại số tiền bạn đã trả hoặc liên hệ với bạn: hãy cung cấp số hóa đơn bên dưới.',
  'expired.back': 'Quay lại {app}',

  'late.heading': 'Khoản thanh toán của bạn đến quá muộn',
  'late.status':
    'Chúng tôi nhận được {paid} {asset} sau khi hóa đơn này đã hết hạn, nên không thể hoàn tất đơn hàng.',
  'late.next': '{app} sẽ hoàn lại khoản này. Khi liên hệ, hãy cung cấp số hóa đơn bên dưới.',

  'invalid.heading': 'Hóa đơn này không còn hiệu lực',
  'invalid.status': 'Hóa đơn đã bị {app} hủy hoặc đóng. Vui lòng không thanh toán cho hóa đơn này.',

  'notFound.heading': 'Không tìm thấy trang thanh toán',
  'notFound.status':
    'Không có hóa đơn nào tại đường dẫn này. Hãy kiểm tra lại liên kết bạn nhận được, hoặc quay lại cửa hàng.',
  'badMethod.heading': 'Không hỗ trợ phương thức thanh toán này',
  'badMethod.status': 'Không thể thanh toán hóa đơn này bằng {method}.',
  'tooMany.heading': 'Quá nhiều yêu cầu',
  'tooMany.status': 'Vui lòng đợi một phút rồi tải lại trang này.',
  'error.heading': 'Đã xảy ra lỗi',
  'error.status': 'Vui lòng tải lại trang sau giây lát.',

  'language.label': 'Ngôn ngữ',
  'punctuation.colon': ': ',

  'link.amount': 'Số tiền',
  'link.amountLabel': 'Số tiền cần thanh toán ({currency})',
  'link.range': 'Từ {min} đến {max}',
  'link.rangeMin': 'Tối thiểu {min}',
  'link.rangeMax': 'Tối đa {max}',
  'link.pay': 'Thanh toán',
  'link.next': 'Bạn sẽ chọn loại tiền và mạng ở trang tiếp theo.',
  'link.until': 'Có hiệu lực đến {date}',
  'link.amountInvalid': 'Vui lòng nhập số tiền bằng chữ số, ví dụ 25,00.',
  'link.amountTooLow': 'Số tiền phải từ {min} trở lên.',
  'link.amountTooHigh': 'Số tiền không được vượt quá {max}.',
  'link.closedHeading': 'Liên kết thanh toán này không còn khả dụng',
  'link.expired': 'Liên kết đã hết hạn vào {date}. Hãy yêu cầu {app} cung cấp liên kết mới.',
  'link.usedUp':
    'Liên kết đã được dùng đủ số lần thanh toán mà {app} cho phép. Hãy yêu cầu {app} cung cấp liên kết mới.',
  'link.off': '{app} đã tắt liên kết này. Hãy yêu cầu {app} cung cấp liên kết mới.',
  'link.notFoundHeading': 'Không tìm thấy liên kết thanh toán',
  'link.notFound':
    'Không có liên kết thanh toán nào tại đường dẫn này. Hãy kiểm tra lại liên kết bạn nhận được.',
  'link.amountPlaces': 'Số tiền này có nhiều chữ số thập phân hơn mức {currency} cho phép.',
  'link.unavailableHeading': 'Liên kết thanh toán này hiện không thể nhận thanh toán',
  'link.unavailable': 'Vui lòng thử lại sau vài phút, hoặc liên hệ với {app}.',

  'refund.title': 'Hoàn tiền từ {app}',
  'refund.merchantLabel': 'Hoàn tiền từ',
  'refund.heading': 'Nhận khoản hoàn tiền của bạn',
  'refund.intro': '{app} đang hoàn tiền cho bạn. Hãy nhập địa chỉ ví sẽ nhận khoản tiền này.',
  'refund.amount': 'Số tiền',
  'refund.token': 'Loại tiền',
  'refund.reason': 'Lý do',
  'refund.until': 'Hạn nhận',
  'refund.addressLabel': 'Địa chỉ {asset} của bạn trên mạng {network}',
  'refund.warning':
    'Nếu bạn nhập địa chỉ nạp tiền của một sàn giao dịch, hãy chắc chắn rằng sàn đó hỗ trợ {asset} trên mạng {network}. Khoản hoàn tiền gửi sai mạng, hoặc gửi đến địa chỉ không nhận token này, sẽ bị mất.',
  'refund.confirm': 'Tôi đã kiểm tra địa chỉ này: địa chỉ có thể nhận {asset} trên mạng {network}.',
  'refund.final': 'Sau khi xác nhận nhận tiền, bạn không thể thay đổi địa chỉ.',
  'refund.submit': 'Nhận hoàn tiền',
  'refund.addressInvalid':
    'Đây không phải là địa chỉ {network} hợp lệ. Hãy kiểm tra lại và thử lần nữa.',
  'refund.addressLost':
    'Mọi khoản gửi đến địa chỉ này đều sẽ bị mất. Hãy nhập địa chỉ ví của chính bạn.',
  'refund.addressMerchant':
    'Địa chỉ này thuộc về {app}, không phải của bạn. Hãy nhập địa chỉ ví của chính bạn.',
  'refund.confirmMissing': 'Hãy đánh dấu ô này sau khi bạn đã kiểm tra địa chỉ.',
  'refund.claimedHeading': 'Đã xác nhận nhận hoàn tiền',
  'refund.sentHeading': 'Đã gửi hoàn tiền',
  'refund.alreadyClaimed':
    'Khoản hoàn tiền này đã được xác nhận nhận trước đó. Không thể thay đổi địa chỉ nhận.',
  'refund.status': 'Trạng thái',
  'refund.statusQueued': 'Đang chờ gửi: {app} sẽ sớm gửi khoản tiền này.',
  'refund.statusSending': 'Đang được gửi trên mạng.',
  'refund.statusSent': 'Đã gửi.',
  'refund.statusFailed':
    'Giao dịch chuyển tiền không thành công. {app} sẽ gửi lại; bạn không cần làm gì thêm.',
  'refund.txHash': 'Mã băm giao dịch',
  'refund.close': 'Bạn có thể đóng trang này và mở lại liên kết để theo dõi khoản hoàn tiền.',
  'refund.expiredHeading': 'Liên kết hoàn tiền này đã hết hạn',
  'refund.expired':
    'Khoản hoàn tiền không được nhận trong thời hạn, nên sẽ không có gì được gửi qua liên kết này. Hãy liên hệ {app} để được cấp liên kết hoàn tiền mới.',
  'refund.cancelledHeading': 'Khoản hoàn tiền này đã bị hủy',
  'refund.cancelled':
    '{app} đã hủy khoản hoàn tiền này, nên sẽ không có gì được gửi qua liên kết này. Bạn có thể yêu cầu họ cấp liên kết hoàn tiền mới.',
  'refund.notFoundHeading': 'Không tìm thấy liên kết hoàn tiền',
  'refund.notFound':
    'Không có khoản hoàn tiền nào tại địa chỉ này. Hãy kiểm tra lại liên kết bạn đã nhận.',

  'test.banner': 'CHẾ ĐỘ THỬ NGHIỆM: không dùng tiền thật',
  'test.heading': 'Mô phỏng thanh toán',
  'test.note':
    'Gửi một giao dịch thử trên mạng thử nghiệm; trang này theo dõi nó như một khoản thanh toán thật.',
  'test.full': 'Mô phỏng thanh toán đủ',
  'test.partial': 'Mô phỏng thanh toán một phần',
  'test.over': 'Mô phỏng thanh toán thừa',
  'test.refused': 'Chưa mô phỏng được thanh toán',
  'test.live': 'Hóa đơn này là thật: chỉ có thể mô phỏng thanh toán ở chế độ thử nghiệm.',
  'test.final': 'Hóa đơn này không còn nhận thanh toán.',
  'test.paidInFull': 'Hóa đơn này đã được thanh toán đủ: hãy mô phỏng thanh toán thừa để trả thêm.',
  'test.testnet':
    'Tại đây mạng thử nghiệm này là testnet công khai: hãy gửi một giao dịch testnet thật.',
  'test.tooMany': 'Quá nhiều lần mô phỏng thanh toán cho hóa đơn này: hãy thử lại sau một phút.',
  'test.back': 'Quay lại hóa đơn',
};
