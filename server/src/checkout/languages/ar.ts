import type { Catalogue } from '../messages';

// The checkout's Arabic catalogue: en.ts, sentence by sentence.
export const ar: Catalogue = {
  'page.title': 'الدفع إلى {app}',
  'page.noscriptRefresh': 'تُحدَّث هذه الصفحة تلقائيًا كل 15 ثانية.',
  'merchant.label': 'الدفع إلى',
  'invoice.number': 'فاتورة رقم {id}',
  'invoice.description': 'الوصف',

  'pick.heading': 'اختر طريقة الدفع',
  'pick.intro': 'حدّد العملة والشبكة اللتين ستستخدمهما محفظتك في الإرسال.',
  'pick.option': '{asset} على شبكة {network}',
  'pick.amount': '{amount} {asset}',
  'pick.change': 'اختر طريقة دفع أخرى',

  'amount.heading': 'المبلغ المطلوب إرساله',
  'amount.token': 'أرسل بالضبط',
  'amount.fiat': 'إجمالي الفاتورة',
  'amount.rate': 'سعر الصرف',
  'amount.rateValue': '1 {asset} = {rate} {currency}',
  'amount.paid': 'المبلغ المستلَم حتى الآن',

  'network.heading': 'الشبكة',
  'network.value': '{network} (معرّف السلسلة {chainId})',
  'network.token': 'عقد الرمز المميّز',
  'network.coin': 'العملة الأصلية للشبكة، دون عقد رمز مميّز',
  'network.warning': 'لا ترسل إلى هذا العنوان إلا {asset} على شبكة {network} ({standard}).',
  'network.warningPlain': 'لا ترسل إلى هذا العنوان إلا {asset} على شبكة {network}.',

  'address.heading': 'العنوان',
  'address.open': 'فتح في المحفظة',
  'address.scanOrCopy': 'امسح رمز QR بمحفظتك، أو انسخ العنوان والمبلغ.',
  'address.qr': 'رمز QR لطلب دفع: {amount} {asset} على شبكة {network} إلى العنوان {address}',
  'copy.address': 'نسخ العنوان',
  'copy.amount': 'نسخ المبلغ',
  'copy.done': 'تم النسخ',

  'expiry.label': 'آخر موعد للدفع',
  'expiry.left': 'الوقت المتبقي',
  'expiry.minutes': 'الدقائق المتبقية للدفع: {minutes}',
  'expiry.minute': 'بقيت دقيقة واحدة للدفع',
  'expiry.seconds': 'الثواني المتبقية للدفع: {seconds}',
  'expiry.over': 'انتهى وقت الدفع',

  'waiting.heading': 'ادفع {amount} {asset}',
  'waiting.status': 'في انتظار دفعتك.',

  'partial.heading': 'المبلغ المتبقي: {due} {asset}',
  'partial.status': 'استلمنا {paid} {asset}. أرسل المبلغ المتبقي ({due} {asset}) إلى العنوان نفسه.',

  'seen.heading': 'تم استلام الدفعة، وجارٍ تأكيدها',
  'seen.status': 'رُصدت دفعة بقيمة {paid} {asset}، التأكيدات: {confirmations} من {required}.',
  'seen.next': 'يمكنك إغلاق هذه الصفحة: ستكتمل عملية الدفع تلقائيًا.',

  'paid.heading': 'تم الدفع',
  'paid.status': 'شكرًا لك. وصلت دفعتك إلى {app}.',
  'paid.redirect': 'سنعيدك إلى {app} خلال ثوانٍ.',
  'paid.return': 'العودة إلى {app}',
  'paid.close': 'يمكنك إغلاق هذه الصفحة.',
  'paid.late': 'وصلت دفعتك بعد انتهاء مهلة الدفع، ومع ذلك احتُسبت.',
  'paid.over': 'أرسلت {amount} {asset} زيادةً على المبلغ المستحق. سيردّ {app} إليك الفرق.',

  'expired.heading': 'انتهت صلاحية هذه الفاتورة',
  'expired.nothing': 'لم تصل أي دفعة في الوقت المحدد.',
  'expired.again': 'لا ترسل أي شيء إلى عنوان هذه الفاتورة. للدفع، عُد إلى {app} وابدأ من جديد.',
  'expired.partialHeading': 'انتهت صلاحية هذه الفاتورة بعد دفع جزء منها',
  'expired.partial':
    'استلمنا {paid} {asset} من أصل {amount} {asset} قبل انتهاء الصلاحية، وهذا لا يكفي لإتمام الطلب.',
  'expired.partialNext':
    'لا ترسل أي مبلغ آخر إلى عنوان هذه الفاتورة. سيردّ {app} إليك ما دفعته أو سيتواصل معك: اذكر رقم الفاتورة الظاهر أدناه.',
  'expired.back': 'العودة إلى {app}',

  'late.heading': 'وصلت دفعتك بعد فوات الأوان',
  'late.status':
    'استلمنا {paid} {asset} بعد انتهاء صلاحية هذه الفاتورة، لذا لا يمكن إتمام الطلب بها.',
  'late.next': 'سيردّ {app} إليك هذا المبلغ. اذكر رقم الفاتورة الظاهر أدناه إذا تواصلت معه.',

  'invalid.heading': 'هذه الفاتورة لم تعد صالحة',
  'invalid.status': 'ألغى {app} هذه الفاتورة أو أغلقها. لا ترسل إليها أي دفعة.',

  'notFound.heading': 'صفحة الدفع غير موجودة',
  'notFound.status':
    'لا توجد فاتورة مرتبطة بهذه الصفحة. تحقّق من الرابط الذي تلقيته، أو عُد إلى المتجر.',
  'badMethod.heading': 'طريقة الدفع هذه غير متاحة',
  'badMethod.status': 'لا يمكن دفع هذه الفاتورة باستخدام {method}.',
  'tooMany.heading': 'طلبات كثيرة جدًا',
  'tooMany.status': 'يُرجى الانتظار دقيقة، ثم إعادة تحميل هذه الصفحة.',
  'error.heading': 'حدث خطأ ما',
  'error.status': 'يُرجى إعادة تحميل هذه الصفحة بعد قليل.',

  'language.label': 'اللغة',
  'punctuation.colon': ': ',

  'link.amount': 'المبلغ',
  'link.amountLabel': 'المبلغ المراد دفعه ({currency})',
  'link.range': 'من {min} إلى {max}',
  'link.rangeMin': 'الحد الأدنى {min}',
  'link.rangeMax': 'الحد الأقصى {max}',
  'link.pay': 'ادفع',
  'link.next': 'ستختار العملة والشبكة في الصفحة التالية.',
  'link.until': 'متاح حتى {date}',
  'link.amountInvalid': 'أدخل المبلغ بالأرقام، مثل 25.00.',
  'link.amountTooLow': 'يجب ألا يقل المبلغ عن {min}.',
  'link.amountTooHigh': 'يجب ألا يزيد المبلغ على {max}.',
  'link.closedHeading': 'رابط الدفع هذا لم يعد متاحًا',
  'link.expired': 'انتهت صلاحيته في {date}. اطلب رابطًا جديدًا من {app}.',
  'link.usedUp': 'بلغ الحد الأقصى لعدد مرات الدفع الذي يسمح به {app}. اطلب رابطًا جديدًا من {app}.',
  'link.off': 'عطّل {app} هذا الرابط. اطلب رابطًا جديدًا من {app}.',
  'link.notFoundHeading': 'رابط الدفع غير موجود',
  'link.notFound': 'لا يوجد رابط دفع مرتبط بهذه الصفحة. تحقّق من الرابط الذي تلقيته.',
  'link.amountPlaces': 'يحتوي هذا المبلغ على منازل عشرية أكثر مما تسمح به عملة {currency}.',
  'link.unavailableHeading': 'رابط الدفع هذا لا يمكنه قبول الدفعات حاليًا',
  'link.unavailable': 'يُرجى المحاولة مرة أخرى بعد بضع دقائق، أو التواصل مع {app}.',
};
